package nvidb.tui.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Supplier;
import nvidb.core.api.NvidbException;
import nvidb.core.api.QueueAccess;
import nvidb.tui.model.TuiModel;
import nvidb.tui.view.Text;

/** Checks there is a terminal, takes it over, runs the loop, and gives the terminal back. */
public final class TuiRunner {
    private TuiRunner() {
    }

    public static int run(double refreshSeconds, Map<String, String> env, Supplier<QueueAccess> opener) {
        java.io.Console console = System.console();
        if (console == null || !console.isTerminal()) {
            throw NvidbException.usage("nvidb queue shows the queue on a terminal, and stdin and stdout here are not one;"
                    + " for a one-shot view use nvidb queue status (or --json)");
        }
        if ("dumb".equals(env.get("TERM"))) {
            throw NvidbException.usage("nvidb queue needs a terminal that can place the cursor, and TERM=dumb cannot;"
                    + " use nvidb queue status, or set TERM (e.g. xterm-256color)");
        }
        TuiModel model = new TuiModel(refreshSeconds);
        try (Controller controller = new Controller(model, opener);
             TerminalSession term = TerminalSession.open(env)) {
            Text.unicode(term.unicode());
            return controller.run(term);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the terminal: " + e.getMessage(), e);
        }
    }
}
