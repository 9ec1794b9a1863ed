package nvidb.cli.commands;

import nvidb.cli.context.Interrupted;
import nvidb.core.api.Job;
import nvidb.core.api.Queue;
import nvidb.core.api.TickMode;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "logs", mixinStandardHelpOptions = true, description = {"A job's output, read from its node.",
        "With -f and --json the output is JSON Lines: one compact document per line, each {id, stream, log} with",
        "the new output, and a last line {id, stream, summary: true, state, exit_code} when the job has ended."})
public final class JobLogs extends BaseCommand {
    @Mixin
    JobIdArgument id;

    @Option(names = {"-n", "--number"}, paramLabel = "N", description = "The last N lines (default 200).")
    int number = 200;

    @Option(names = "--stderr", description = "Read stderr instead of stdout.")
    boolean stderr;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends.")
    boolean follow;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        long jobId = id.value();
        Queue service = service();
        service.tick(tick.read());
        String text = service.jobQueries().logs(jobId, stderr, number);
        if (!follow) {
            if (json()) {
                out().document(chunk(jobId, text));
            } else {
                out().raw(text.isEmpty() || text.endsWith("\n") ? text : text + "\n");
            }
            return 0;
        }
        if (json()) {
            out().startLines();
        }
        print(jobId, text);
        String seen = text;
        while (true) {
            Job job = service.jobQueries().job(jobId);
            if (job.state().terminal()) {
                String last = service.jobQueries().logs(jobId, stderr, Math.max(number, 10_000));
                print(jobId, suffixAfter(seen, last));
                if (json()) {
                    out().document(new JobDocuments.LogEnd(jobId, stream(), true, job.state().label(), job.exitCode()));
                }
                return 0;
            }
            try {
                Thread.sleep(Waiting.POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Interrupted();
            }
            service.tick(tick.read() == TickMode.NONE ? TickMode.NONE : TickMode.AUTO);
            String now = service.jobQueries().logs(jobId, stderr, Math.max(number, 10_000));
            print(jobId, suffixAfter(seen, now));
            seen = now;
        }
    }

    /** New output while following: as it is, or with --json one line {@code {id, stream, log}} per chunk. */
    private void print(long jobId, String text) {
        if (!json()) {
            out().raw(text);
        } else if (!text.isEmpty()) {
            out().document(chunk(jobId, text));
        }
    }

    private JobDocuments.LogChunk chunk(long jobId, String text) {
        return new JobDocuments.LogChunk(jobId, stream(), text);
    }

    private String stream() {
        return stderr ? "stderr" : "stdout";
    }

    /** What {@code now} adds after the text already printed (its end overlaps the start of {@code now}). */
    static String suffixAfter(String seen, String now) {
        if (seen.isEmpty()) {
            return now;
        }
        if (now.startsWith(seen)) {
            return now.substring(seen.length());
        }
        // The window slid: find the longest end of what we printed that starts the new text.
        for (int k = Math.min(seen.length(), now.length()); k > 0; k--) {
            if (now.startsWith(seen.substring(seen.length() - k))) {
                return now.substring(k);
            }
        }
        return now;
    }
}
