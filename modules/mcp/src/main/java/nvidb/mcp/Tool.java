package nvidb.mcp;

/**
 * One MCP tool: its name, a description written for an agent (with the skill's advice where it
 * applies), the record its answer is (the CLI's {@code --json} document: the output schema is made
 * from it), hints, and the handler that calls the application layer.
 *
 * @param readOnly    it changes nothing (reads may still run a rate-limited pass, as the CLI's do)
 * @param destructive it ends or undoes someone's work (cancel)
 */
public record Tool(String name, String title, String description, Class<?> document, boolean readOnly,
                   boolean destructive, Handler handler) {
    @FunctionalInterface
    public interface Handler {
        ToolOutcome call(ToolCall call);
    }
}
