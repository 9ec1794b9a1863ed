package nvidb.cli.commands;

import nvidb.core.api.Job;
import nvidb.core.view.JobDocuments;
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
        service().tick(tick.onRequest());
        Job job = set == null ? service().jobQueries().job(id.value()) : service().jobEdits().setResult(id.value(), set);
        if (json()) {
            out().document(new JobDocuments.Result(set != null ? Boolean.TRUE : null, job.id(), job.state().label(),
                    StoredJson.parsed(job.resultJson())));
        } else if (job.resultJson() == null) {
            out().line("(no result)");
        } else {
            out().line(StoredJson.parsed(job.resultJson()).toPrettyString());
        }
        return 0;
    }
}
