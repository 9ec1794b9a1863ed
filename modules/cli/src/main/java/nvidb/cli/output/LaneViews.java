package nvidb.cli.output;

import java.time.Instant;
import java.util.List;
import nvidb.core.api.Job;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.Sizes;

/** Lanes as tables for people ({@code --json} prints nvidb.core.view.LaneView). */
public final class LaneViews {
    private LaneViews() {
    }

    /** {@code queue lanes} without {@code --json}. */
    public static String table(List<LaneView> views) {
        if (views.isEmpty()) {
            return "no lanes yet (run `nvidb queue tick` to discover the GPUs)";
        }
        Table t = new Table("LANE", "STATE", "RUNNER", "RUN", "QUEUED", "NOW", "NEXT", "BLOCKED");
        for (LaneView v : views) {
            LaneRecord l = v.lane();
            String now = v.running().isEmpty() ? "-" : Table.clip(label(v.running().getFirst()), 22);
            String next = v.queued().isEmpty() ? "-" : Table.clip(v.queued().getFirst().id()
                    + (v.queued().getFirst().name().isEmpty() ? "" : " " + v.queued().getFirst().name()), 22);
            t.row(l.name(), l.paused() ? "paused" : v.nodeState(), runner(v), v.running().size(), v.queued().size(),
                    now, next, v.blocked() == null ? "-" : Table.clip(v.blocked(), 40));
        }
        return t.render("");
    }

    private static String label(Job j) {
        return j.name().isEmpty() ? String.valueOf(j.id()) : j.name();
    }

    /** off when the lane's runner is switched off, up when one answered lately, else "-". */
    private static String runner(LaneView v) {
        if (!v.lane().runner()) {
            return "off";
        }
        return v.runnerUp() ? "up" : "-";
    }

    /** {@code queue lane L} without {@code --json}. */
    public static String detail(LaneView v, Instant now) {
        LaneRecord l = v.lane();
        StringBuilder sb = new StringBuilder();
        sb.append("LANE ").append(l.name()).append("  [").append(l.paused() ? "paused" : v.nodeState()).append("]  node=")
                .append(l.node()).append(" gpu=").append(HumanViews.gpus(l.gpuIds())).append("  ")
                .append(!l.runner() ? "runner off" : v.runnerUp() ? "runner up" : "no runner");
        if (l.concurrency() != 1) {
            sb.append("  concurrency=").append(l.concurrency());
        }
        if (v.blocked() != null) {
            sb.append("\n  blocked: ").append(v.blocked());
        }
        sb.append('\n');
        if (!v.running().isEmpty()) {
            sb.append("\nRUNNING\n").append(HumanViews.jobTable(v.running(), now, "  ")).append('\n');
        }
        sb.append("\nQUEUED (in order)\n");
        Table t = new Table("#", "ID", "STATE", "NAME", "VRAM", "WHAT");
        int i = 0;
        for (Job j : v.queued()) {
            t.row(++i, j.id(), j.held() ? "held" : "pending", Table.clip(j.name().isEmpty() ? "-" : j.name(), 24),
                    j.vramMb() > 0 ? Sizes.format(j.vramMb()) : "-",
                    Table.clip(j.held() ? j.heldReason() : j.command(), 50));
        }
        sb.append(t.render("  "));
        return sb.toString();
    }
}
