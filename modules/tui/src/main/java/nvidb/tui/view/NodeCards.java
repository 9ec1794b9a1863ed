package nvidb.tui.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import nvidb.core.api.GpuState;
import nvidb.core.api.GpuState.GpuProcessView;
import nvidb.core.api.NodeAdmin.NodeView;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NodeState;
import nvidb.core.api.Sizes;
import nvidb.tui.model.ProcsMode;

/**
 * One card per node: its name, state (up, down, drained, unknown) and last error or last sighting,
 * then per GPU a memory bar in three segments — {@code #} memory of processes the queue did not
 * start, {@code =} the queue's reservations, {@code .} free — with the figures, utilisation,
 * temperature and {@code attribution: blind} where the driver names no process's memory.
 */
final class NodeCards {
    static final char EXTERNAL = '#';
    static final char RESERVED = '=';
    static final char FREE = '.';

    private NodeCards() {
    }

    /** The lines of every card; {@code rows} gets the node each line belongs to. */
    static List<Line> lines(List<NodeView> nodes, ProcsMode procs, String selected, int width, Instant now,
                            Map<Integer, String> rows, int firstRow) {
        List<Line> out = new ArrayList<>();
        if (nodes.isEmpty()) {
            out.add(Line.of(" no nodes yet: a pass (t) probes the configured servers", Style.DIM));
            return out;
        }
        for (NodeView n : nodes) {
            int start = out.size();
            boolean sel = n.node().name().equals(selected);
            out.add(header(n.node(), now, width, sel).selected(sel));
            for (GpuState g : n.gpus()) {
                out.add(gpu(g, width));
                out.addAll(processes(g, procs, width));
            }
            for (int i = start; i < out.size(); i++) {
                rows.put(firstRow + i, n.node().name());
            }
        }
        return out;
    }

    static Line header(NodeRecord n, Instant now, int width, boolean selected) {
        String state = !n.enabled() ? "drained" : n.ignored() ? "ignored" : n.state().label();
        Style style = n.state() == NodeState.DOWN ? Style.ERROR : !n.enabled() ? Style.WARN
                : n.state() == NodeState.UP ? Style.GOOD : Style.DIM;
        Line line = new Line().add(selected ? ">" : " ").add(n.name(), Style.BOLD).add("  ").add("[" + state + "]", style);
        if (n.hostname() != null && !n.hostname().isBlank() && !n.hostname().equals(n.name())) {
            line.add("  " + n.hostname(), Style.DIM);
        }
        if (n.lastError() != null && !n.lastError().isBlank()) {
            line.add("  ! " + Text.cut(Text.clean(n.lastError()), Math.max(10, width - line.width() - 4)), Style.ERROR);
        } else if (n.lastSeen() != null) {
            line.add("  seen " + Text.age(n.lastSeen(), now) + " ago", Style.DIM);
        }
        if (n.gpuCount() == 0 && n.state() == NodeState.UP) {
            line.add("  no GPUs", Style.DIM);
        }
        return line;
    }

    static Line gpu(GpuState g, int width) {
        Line line = new Line().add("   GPU" + g.index() + " ").add(Text.fit(model(g.name()), 14), Style.DIM).add(" [");
        bar(line, g, Math.max(10, Math.min(40, width - 105)));
        line.add("] ");
        if (g.memTotalMb() != null) {
            line.add("other ").add(Sizes.format(g.externalMemMb()), Style.EXTERNAL)
                    .add("  queue ").add(Sizes.format(g.reservedMb()), Style.RESERVED)
                    .add("  free ").add(Sizes.format(g.freeMb()), Style.FREE)
                    .add("/" + Sizes.format(g.memTotalMb().longValue()));
        } else {
            line.add("memory unknown", Style.DIM);
        }
        line.add("  " + (g.utilPercent() == null ? "-" : g.utilPercent()) + "% " + (g.temperatureC() == null ? "-" : g.temperatureC()) + "C");
        if (g.queueJobs() > 0) {
            line.add("  " + g.queueJobs() + (g.queueJobs() == 1 ? " job" : " jobs"));
        }
        if ("blind".equals(g.attribution())) {
            line.add("  attribution: blind", Style.WARN);
        }
        return line;
    }

    /** The model without the words every card shares ({@code NVIDIA GeForce RTX 3090} is an {@code RTX 3090}). */
    static String model(String name) {
        return name == null ? "?" : name.replaceFirst("^NVIDIA ", "").replaceFirst("^GeForce ", "");
    }

    /** The bar's three segments; a segment that holds anything shows at least one cell. */
    static void bar(Line line, GpuState g, int cells) {
        Integer total = g.memTotalMb();
        if (total == null || total <= 0) {
            line.add("?".repeat(cells), Style.DIM);
            return;
        }
        long ext = Math.min(total, Math.max(0, g.externalMemMb()));
        long res = Math.min(total - ext, Math.max(0, g.reservedMb()));
        int e = share(ext, total, cells);
        int r = Math.min(cells - e, share(res, total, cells));
        line.add(String.valueOf(EXTERNAL).repeat(e), Style.EXTERNAL)
                .add(String.valueOf(RESERVED).repeat(r), Style.RESERVED)
                .add(String.valueOf(FREE).repeat(cells - e - r), Style.FREE);
    }

    private static int share(long part, long total, int cells) {
        if (part <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.round((double) part * cells / total));
    }

    private static List<Line> processes(GpuState g, ProcsMode procs, int width) {
        List<Line> out = new ArrayList<>();
        if (procs == ProcsMode.OFF || g.processes().isEmpty()) {
            return out;
        }
        if (procs == ProcsMode.SUMMARY) {
            long others = g.processes().stream().filter(p -> !p.managed()).count();
            if (others > 0) {
                String names = String.join(", ", g.processes().stream().filter(p -> !p.managed()).limit(3)
                        .map(p -> Text.clean(p.name()) + " (" + (p.user() == null ? "?" : p.user()) + ", "
                                + (p.memMb() == null ? "?" : Sizes.format(p.memMb().longValue())) + ")")
                        .toList());
                out.add(new Line().add("         other: ", Style.DIM)
                        .add(Text.cut(names + (others > 3 ? ", +" + (others - 3) + " more" : ""), width - 17)));
            }
            return out;
        }
        for (GpuProcessView p : g.processes()) {
            String owner = p.jobId() != null ? "job " + p.jobId() + (p.jobName() == null ? "" : " " + p.jobName()) : "other";
            out.add(new Line().add("         pid " + Text.fit(String.valueOf(p.pid()), 8))
                    .add(Text.fit(p.user() == null ? "-" : p.user(), 10) + " ")
                    .add(Text.right(p.memMb() == null ? "-" : Sizes.format(p.memMb().longValue()), 6) + "  ")
                    .add(Text.fit(Text.clean(owner), 20), p.managed() ? Style.RESERVED : Style.EXTERNAL)
                    .add(" " + Text.cut(Text.clean(p.name()), Math.max(5, width - 60))));
        }
        return out;
    }
}
