package nvidb.cli.commands;

import nvidb.cli.output.HumanViews;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickSummary;
import nvidb.core.view.QueueDocuments;
import nvidb.core.view.TickView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tick", mixinStandardHelpOptions = true, description = {
        "Run one scheduler pass now (--watch N: every N seconds until Ctrl-C).",
        "A pass ends by handing new alerts to the sinks queue.notify configures (listed under deliveries),",
        "30 s at most; none while a queue daemon runs: it delivers them (any other command's pass: 2 s).",
        "With --watch and --json the output is JSON Lines: one compact document per pass, and a last line",
        "{summary: true, passes, dispatched, finished} when the watch is interrupted."})
public final class QueueTick extends BaseCommand {
    @Option(names = "--watch", paramLabel = "SECONDS", description = "Keep ticking, sleeping this long between passes.")
    Integer watch;

    @Override
    protected int execute() {
        if (watch != null && watch < 1) {
            throw NvidbException.usage("--watch takes a number of seconds ≥ 1");
        }
        if (watch != null && json()) {
            out().startLines();
        }
        int passes = 0;
        int dispatched = 0;
        int finished = 0;
        while (true) {
            TickSummary t = ctx().app().pass(ctx().caller());
            print(t);
            passes++;
            dispatched += t.dispatched().size();
            finished += t.finished().size();
            if (watch == null) {
                return 0;
            }
            try {
                Thread.sleep(watch * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (json()) {
                    out().document(new QueueDocuments.WatchSummary(true, passes, dispatched, finished));
                }
                return 0;
            }
        }
    }

    private void print(TickSummary t) {
        if (json()) {
            out().document(TickView.of(t));
            return;
        }
        HumanViews.tickLines(t).forEach(out()::line);
    }
}
