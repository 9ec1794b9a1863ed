package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import nvidb.cli.startup.CommandLines;
import nvidb.mcp.ToolParameter;
import nvidb.mcp.ToolParameters;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Each MCP tool's arguments, read from the model the CLI parses its command with (the build-time
 * model, {@link CommandLines#fromModel}): every option under its long name in snake_case, every
 * positional parameter under its label; {@code --help}, {@code --version} and {@code --json} are
 * the terminal's own. So a tool takes exactly what its command takes.
 */
public final class CliToolParameters implements ToolParameters {
    /** The command each tool mirrors. */
    public static final Map<String, Supplier<Object>> COMMANDS = Map.ofEntries(
            Map.entry("submit", JobCommand.SUBCOMMANDS.get("submit")),
            Map.entry("sweep_submit", JobCommand.SUBCOMMANDS.get("sweep")),
            Map.entry("jobs", JobCommand.SUBCOMMANDS.get("ls")),
            Map.entry("job", JobCommand.SUBCOMMANDS.get("show")),
            Map.entry("logs", JobCommand.SUBCOMMANDS.get("logs")),
            Map.entry("wait", JobCommand.SUBCOMMANDS.get("wait")),
            Map.entry("cancel", JobCommand.SUBCOMMANDS.get("cancel")),
            Map.entry("requeue", JobCommand.SUBCOMMANDS.get("requeue")),
            Map.entry("priority", JobCommand.SUBCOMMANDS.get("priority")),
            Map.entry("note", JobCommand.SUBCOMMANDS.get("note")),
            Map.entry("edit", JobCommand.SUBCOMMANDS.get("edit")),
            Map.entry("release", JobCommand.SUBCOMMANDS.get("release")),
            Map.entry("result", JobCommand.SUBCOMMANDS.get("result")),
            Map.entry("events", QueueCommand.SUBCOMMANDS.get("events")),
            Map.entry("alerts", QueueCommand.SUBCOMMANDS.get("alerts")),
            Map.entry("ack", QueueCommand.SUBCOMMANDS.get("ack")),
            Map.entry("status", QueueCommand.SUBCOMMANDS.get("status")),
            Map.entry("nodes", QueueCommand.SUBCOMMANDS.get("nodes")),
            Map.entry("lanes", QueueCommand.SUBCOMMANDS.get("lanes")),
            Map.entry("usage", QueueCommand.SUBCOMMANDS.get("usage")),
            Map.entry("sweep", SweepCommand.SUBCOMMANDS.get("show")),
            Map.entry("doctor", () -> new DoctorCommand(Optional::empty)));

    /** Options of the terminal, not of the work: no tool takes them. */
    private static final List<String> TERMINAL_ONLY = List.of("--help", "--version", "--json");

    private final Map<String, List<ToolParameter>> cache = new ConcurrentHashMap<>();

    @Override
    public List<ToolParameter> of(String tool) {
        return cache.computeIfAbsent(tool, CliToolParameters::read);
    }

    private static List<ToolParameter> read(String tool) {
        Supplier<Object> command = COMMANDS.get(tool);
        if (command == null) {
            throw new IllegalArgumentException("no CLI command for the tool " + tool);
        }
        CommandLine line = CommandLines.fromModel().of(command.get());
        List<ToolParameter> out = new ArrayList<>();
        for (OptionSpec o : line.getCommandSpec().options()) {
            if (TERMINAL_ONLY.contains(o.longestName()) || o.usageHelp() || o.versionHelp()) {
                continue;
            }
            out.add(new ToolParameter(ToolParameter.nameOf(o.longestName()), kind(o), description(o), o.required(),
                    o.longestName()));
        }
        for (CommandLine.Model.PositionalParamSpec p : line.getCommandSpec().positionalParameters()) {
            String label = p.paramLabel().replaceAll("[<>.]", "");
            boolean required = p.arity().min() > 0;
            out.add(new ToolParameter(ToolParameter.nameOf(label), kind(p), description(p), required, label));
        }
        return List.copyOf(out);
    }

    private static ToolParameter.Kind kind(ArgSpec a) {
        Class<?> type = a.type();
        if (a.isMultiValue() || java.util.Collection.class.isAssignableFrom(type)) {
            return ToolParameter.Kind.STRINGS;
        }
        if (type == boolean.class || type == Boolean.class) {
            return ToolParameter.Kind.BOOLEAN;
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return ToolParameter.Kind.INTEGER;
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return ToolParameter.Kind.NUMBER;
        }
        return ToolParameter.Kind.STRING;
    }

    private static String description(ArgSpec a) {
        String text = String.join(" ", a.description()).strip();
        String label = a.paramLabel() == null ? "" : a.paramLabel();
        if (a instanceof OptionSpec o && o.arity().max() == 0) {
            return text;
        }
        return label.isEmpty() || label.startsWith("PARAM") ? text : label.replaceAll("[<>]", "") + ": " + text;
    }
}
