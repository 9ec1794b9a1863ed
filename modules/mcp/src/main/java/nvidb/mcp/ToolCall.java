package nvidb.mcp;

import nvidb.core.api.Caller;
import nvidb.core.api.TickMode;
import nvidb.core.app.Application;

/**
 * One tool call as its handler sees it: the application layer, who asks (the client's name as the
 * submitter, through MCP), the checked arguments, and where progress goes while it works.
 */
public record ToolCall(Application app, Caller caller, ToolArguments args, Progress progress) {
    /** Progress of a long call (a wait, a followed log): the client sees each as a notification. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (step, message) -> { };

        void report(long step, String message);
    }

    /** {@code tick} / {@code no_tick} of a read ({@code TickOptions.read} in the CLI). */
    TickMode readTick() {
        boolean none = args.flag("no_tick");
        boolean force = args.flag("tick");
        return none ? TickMode.NONE : force ? TickMode.FORCE : TickMode.AUTO;
    }

    /** {@code tick} / {@code no_tick} of a read that contacts no node unless asked to. */
    TickMode onRequestTick() {
        boolean none = args.flag("no_tick");
        boolean force = args.flag("tick");
        return force && !none ? TickMode.FORCE : TickMode.NONE;
    }

    /** {@code no_tick} of a change: no scheduler pass afterwards. */
    TickMode afterTick() {
        return args.flag("no_tick") ? TickMode.NONE : TickMode.FORCE;
    }
}
