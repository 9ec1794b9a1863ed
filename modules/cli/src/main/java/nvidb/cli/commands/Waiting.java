package nvidb.cli.commands;

import java.util.function.Consumer;
import java.util.stream.Collectors;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Job;
import nvidb.core.app.JobOperations;

/**
 * What waiting for jobs prints, shared by {@code job wait}, {@code job submit --wait} and
 * {@code sweep wait} (the waiting is the application's, {@link JobOperations#await}): the status
 * line on a terminal's stderr, never in JSON, and the exit code.
 */
final class Waiting {
    private Waiting() {
    }

    /** Tells a person at a terminal which job is still going; nothing in JSON or into a pipe. */
    static Consumer<Job> statusLine(Output out) {
        if (!out.terminal() || out.json()) {
            return first -> { };
        }
        return first -> {
            out.err().print("\r\u001b[2Kwaiting: job " + first.id() + " " + first.displayState()
                    + (first.progress() == null ? "" : "  " + first.progress()));
            out.err().flush();
        };
    }

    /** Clears the status line where an interrupt ended the wait. */
    static void ended(JobOperations.Waited o, Output out) {
        if (o.interrupted() && out.terminal() && !out.json()) {
            out.err().print("\r\u001b[2K");
            out.err().flush();
        }
    }

    /** 0 all completed, 1 one ended badly, 2 the timeout ran out with work still going, 130 interrupted. */
    static int exitCode(JobOperations.Waited o) {
        return o.interrupted() ? ErrorCode.INTERRUPTED.exitCode() : o.timedOut() ? 2 : o.allSucceeded() ? 0 : 1;
    }

    /** The sentence a person sees after an interrupted wait (JSON says {@code "interrupted": true}). */
    static String interruptedNote(JobOperations.Waited o) {
        String going = o.jobs().stream().filter(j -> !j.state().terminal()).map(j -> String.valueOf(j.id()))
                .collect(Collectors.joining(" "));
        return "waiting interrupted; nothing was cancelled"
                + (going.isEmpty() ? "" : ": job(s) " + going + " keep going (nvidb job wait " + going + ")");
    }
}
