package nvidb.cli.commands;

import nvidb.cli.output.Views;
import nvidb.core.api.NvidbException;
import nvidb.core.api.TickMode;
import nvidb.core.api.TickSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tick", mixinStandardHelpOptions = true, description = "Run one scheduler pass now (--watch N: every N seconds until Ctrl-C).")
public final class QueueTick extends BaseCommand {
    @Option(names = "--watch", paramLabel = "SECONDS", description = "Keep ticking, sleeping this long between passes.")
    Integer watch;

    @Override
    protected int execute() {
        if (watch != null && watch < 1) {
            throw NvidbException.usage("--watch takes a number of seconds ≥ 1");
        }
        while (true) {
            TickSummary t = service().tick(TickMode.FORCE);
            print(t);
            if (watch == null) {
                return 0;
            }
            try {
                Thread.sleep(watch * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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
        for (TickSummary.Problem p : t.errors()) {
            out().line("  !! " + p.subjectKey() + " " + p.subject() + ": " + p.error());
        }
    }
}
