package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.cli.output.Output;
import nvidb.cli.output.Views;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tick", mixinStandardHelpOptions = true, description = {
        "Run one scheduler pass now (--watch N: every N seconds until Ctrl-C).",
        "A pass ends by handing new alerts to the sinks queue.notify configures (listed under deliveries).",
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
            TickSummary t = service().tick(TickMode.FORCE);
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
                    ObjectNode end = Output.object();
                    end.put("summary", true);
                    end.put("passes", passes);
                    end.put("dispatched", dispatched);
                    end.put("finished", finished);
                    out().document(end);
                }
                return 0;
            }
        }
    }

    private void print(TickSummary t) {
        if (json()) {
            out().document(Views.tick(t));
            return;
        }
        StringBuilder sb = new StringBuilder("tick: ");
        if (t.skippedReason() != null) {
            sb.append("skipped=").append(t.skippedReason()).append("  ");
        }
        sb.append("nodes up=").append(t.nodesUp()).append(" down=").append(t.nodesDown()).append("  ");
        if (t.nodesIgnored() > 0) {
            sb.append("ignored=").append(t.nodesIgnored()).append("  ");
        }
        sb.append("dispatched=").append(t.dispatched().size()).append("  finished=").append(t.finished().size());
        out().line(sb.toString());
        for (TickSummary.Dispatched d : t.dispatched()) {
            out().line("  -> job " + d.id() + " started on " + d.node() + " GPU " + d.gpuIds());
        }
        for (TickSummary.Finished f : t.finished()) {
            out().line("  <- job " + f.id() + " " + f.state());
        }
        for (TickSummary.Held h : t.held()) {
            out().line("  || job " + h.id() + " held: " + h.reason());
        }
        for (TickSummary.Delivery d : t.deliveries()) {
            out().line("  >> alert " + d.alertId() + " to " + d.sink() + ": " + d.outcome()
                    + (d.error() == null ? "" : " (" + d.error() + ")"));
        }
        for (TickSummary.Problem p : t.errors()) {
            out().line("  !! " + p.subjectKey() + " " + p.subject() + ": " + p.error());
        }
    }
}
