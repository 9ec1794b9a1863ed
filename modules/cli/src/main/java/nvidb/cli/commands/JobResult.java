package nvidb.cli.commands;

import nvidb.core.api.Job;
import nvidb.core.app.JobOperations;
import nvidb.core.view.StoredJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "result", mixinStandardHelpOptions = true, description = {
        "Read a job's result (its result.json, collected on completion), or set one.",
        "  nvidb job result 12 --set '{\"chosen_lr\": 1e-4}'"})
public final class JobResult extends BaseCommand {
    @Mixin
    JobIdArgument id;

    @Option(names = "--set", paramLabel = "JSON", description = "Store this JSON value as the result (any JSON: object, number, \"string\").")
    String set;

    @Mixin
    TickOptions tick;

    /** Reads its result. */
    @Override
    protected boolean readsStoredJson() {
        return true;
    }

    @Override
    protected int execute() {
        ctx().app().tick(ctx().caller(), tick.onRequest());
        JobOperations ops = ctx().app().jobOps();
        Job job = set == null ? ops.result(ctx().caller(), id.value()) : ops.setResult(ctx().caller(), id.value(), set);
        if (json()) {
            out().document(JobOperations.resultDocument(job, set != null));
        } else if (job.resultJson() == null) {
            out().line("(no result)");
        } else {
            out().line(StoredJson.parsed(job.resultJson()).toPrettyString());
        }
        return 0;
    }
}
