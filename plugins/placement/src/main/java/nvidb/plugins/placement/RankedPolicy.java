package nvidb.plugins.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import nvidb.spi.placement.GpuBudget;
import nvidb.spi.placement.Placement;
import nvidb.spi.placement.PlacementPolicy;
import nvidb.spi.placement.PlacementRequest;

/**
 * Spread and pack differ only in which way free memory is ranked, so both are this one policy.
 *
 * <p>A job's GPUs must share one node (its processes talk over the node's own interconnect). Each
 * node therefore offers its best {@code request.gpus()} candidates, ranked by free memory, then by
 * fewer queue jobs, then by lower index; the nodes then compete on the total free memory of what
 * they offer, then on fewer queue jobs, then on configuration order. For a one-GPU job this is
 * simply "the best single GPU anywhere", with earlier nodes winning ties.
 */
final class RankedPolicy implements PlacementPolicy {

    /** Which way free memory is ranked. */
    enum Prefer {
        /** spread: most free memory first. */
        MOST_ROOM,
        /** pack: least free memory first (every candidate already fits). */
        LEAST_ROOM
    }

    /** What one node offers: its best GPUs for this request, in configuration order of nodes. */
    private record Offer(String node, int nodeOrder, List<GpuBudget> gpus, long freeMb, long queueJobs) {
    }

    private final Comparator<GpuBudget> gpuRank;
    private final Comparator<Offer> offerRank;

    RankedPolicy(Prefer prefer) {
        Objects.requireNonNull(prefer, "prefer");
        int room = prefer == Prefer.MOST_ROOM ? -1 : 1;
        // Fewer queue jobs breaks ties in both policies: between two equally full cards, the one
        // with fewer jobs is less likely to see a neighbour's memory grow under it. Written out
        // rather than built with Comparator.comparing(...).thenComparing: the lambdas inside those
        // JDK methods are spun at run time on every start (the AOT cache holds only nvidb's own),
        // and every scheduler pass makes a policy.
        gpuRank = (a, b) -> {
            int c = room * Long.compare(a.freeMb(), b.freeMb());
            c = c != 0 ? c : Integer.compare(a.queueJobs(), b.queueJobs());
            return c != 0 ? c : Integer.compare(a.index(), b.index());
        };
        offerRank = (a, b) -> {
            int c = room * Long.compare(a.freeMb(), b.freeMb());
            c = c != 0 ? c : Long.compare(a.queueJobs(), b.queueJobs());
            return c != 0 ? c : Integer.compare(a.nodeOrder(), b.nodeOrder());
        };
    }

    @Override
    public Optional<Placement> place(PlacementRequest request, List<GpuBudget> candidates) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(candidates, "candidates");
        int wanted = request.gpus();
        if (wanted == 1) {
            return bestSingle(candidates);
        }

        // LinkedHashMap keeps the nodes in the order core listed them, which is configuration order.
        Map<String, List<GpuBudget>> byNode = new LinkedHashMap<>();
        for (GpuBudget gpu : candidates) {
            byNode.computeIfAbsent(gpu.node(), n -> new ArrayList<>()).add(gpu);
        }

        Offer best = null;
        int nodeOrder = 0;
        for (Map.Entry<String, List<GpuBudget>> node : byNode.entrySet()) {
            int order = nodeOrder++;
            List<GpuBudget> gpus = node.getValue();
            if (gpus.size() < wanted) {
                continue;
            }
            List<GpuBudget> chosen = gpus.stream().sorted(gpuRank).limit(wanted).toList();
            long free = chosen.stream().mapToLong(GpuBudget::freeMb).sum();
            long jobs = chosen.stream().mapToLong(GpuBudget::queueJobs).sum();
            Offer offer = new Offer(node.getKey(), order, chosen, free, jobs);
            if (best == null || offerRank.compare(offer, best) < 0) {
                best = offer;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        // Ascending indices: the order CUDA_VISIBLE_DEVICES is written in, whatever ranked them.
        List<Integer> ids = best.gpus().stream().map(GpuBudget::index).sorted().toList();
        return Optional.of(new Placement(best.node(), ids));
    }

    /**
     * The one-GPU case of {@link #place} in one pass, without grouping or sorting: it is most of
     * a dispatch pass's work. Same ranking: room, then fewer queue jobs, then the earlier node
     * (candidates come in configuration order), then the lower index (strict comparison keeps
     * the first of equals).
     */
    private Optional<Placement> bestSingle(List<GpuBudget> candidates) {
        GpuBudget best = null;
        for (GpuBudget gpu : candidates) {
            if (best == null || gpuRank.compare(gpu, best) < 0 && !sameRankOtherNode(gpu, best)) {
                best = gpu;
            }
        }
        return best == null ? Optional.empty() : Optional.of(new Placement(best.node(), List.of(best.index())));
    }

    /** Equal room and jobs on a later node: the earlier node keeps the job, whatever the index. */
    private static boolean sameRankOtherNode(GpuBudget gpu, GpuBudget best) {
        return gpu.freeMb() == best.freeMb() && gpu.queueJobs() == best.queueJobs() && !gpu.node().equals(best.node());
    }
}
