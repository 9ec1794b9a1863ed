package nvidb.cli.commands;

import nvidb.core.app.Application;
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
        Application app = ctx().app();
        app.tick(ctx().caller(), tick.read());
        JobDocuments.LogChunk chunk = app.logChunk(ctx().caller(), jobId, stderr, number);
        if (!follow) {
            if (json()) {
                out().document(chunk);
            } else {
                String text = chunk.log();
                out().raw(text.isEmpty() || text.endsWith("\n") ? text : text + "\n");
            }
            return 0;
        }
        if (json()) {
            out().startLines();
        }
        print(chunk);
        JobDocuments.LogEnd end = app.jobOps().follow(ctx().caller(), chunk, number, tick.read(), this::print);
        if (json()) {
            out().document(end);
        }
        return 0;
    }

    /** New output while following: as it is, or with --json one line {@code {id, stream, log}} per chunk. */
    private void print(JobDocuments.LogChunk chunk) {
        if (!json()) {
            out().raw(chunk.log());
        } else if (!chunk.log().isEmpty()) {
            out().document(chunk);
        }
    }
}
