package nvidb.core.lanes;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.operation.ServiceContext;
import nvidb.core.store.Store;

/** Lane names and lane order: which lane a name means, and where each queued job stands. */
public final class Lanes {
    public record Resolved(String name, String node, List<Integer> gpuIds) {
    }


    private final Store store;
    private final Function<String, String> nodeResolver;

    Lanes(Store store, Function<String, String> nodeResolver) {
        this.store = store;
        this.nodeResolver = nodeResolver;
    }

    /** The lanes of one open queue. */
    public static Lanes of(ServiceContext ctx) {
        return new Lanes(ctx.store(), typed -> laneNode(ctx, typed));
    }

    /** A lane's node: any but a batch node, whose own scheduler places its jobs (it has no lanes). */
    private static String laneNode(ServiceContext ctx, String typed) {
        String node = ctx.resolveNode(typed);
        ctx.nodes().batch(node).ifPresent(b -> {
            throw NvidbException.usage("node " + node + " is a " + b.system() + " partition: " + b.system()
                    + " places its jobs itself, so it has no lanes; submit with --node " + node + " instead");
        });
        return node;
    }

    /** The lane a typed name means, created on first use of a {@code node:gpu} name. */
    String name(String typed) {
        if (typed == null || typed.isBlank()) {
            throw NvidbException.usage("name a lane, e.g. box406:0");
        }
        return resolveOrCreate(typed.strip()).name();
    }

    /**
     * A lane by its name as typed: an existing lane (exact, case-insensitive, unique prefix of a
     * name typed without its {@code :gpu} part), else {@code <node>:<gpu>[,<gpu>…]} with the node
     * resolved (a unique node prefix works), created on first use.
     */
    public Resolved resolveOrCreate(String typed) {
        List<LaneRecord> lanes = store.lanes.all();
        List<String> names = lanes.stream().map(LaneRecord::name).toList();
        LaneRecord match = matchExisting(typed, lanes);
        if (match != null) {
            return new Resolved(match.name(), match.node(), match.gpuIds());
        }
        int colon = typed.lastIndexOf(':');
        String hint = " A lane is written <node>:<gpu>, e.g. box406:0. Known lanes: "
                + (names.isEmpty() ? "(none yet)" : String.join(", ", names));
        if (colon < 0) {
            List<String> ambiguous = prefixMatches(typed, lanes);
            if (ambiguous.size() > 1) {
                throw NvidbException.usage("lane '" + typed + "' is ambiguous: it matches " + String.join(", ", ambiguous)
                        + "; type more of the name");
            }
            throw NvidbException.notFound("unknown lane '" + typed + "'." + hint);
        }
        if (colon == 0 || colon == typed.length() - 1) {
            throw NvidbException.usage("invalid lane name '" + typed + "'." + hint);
        }
        List<Integer> gpus = new ArrayList<>();
        for (String part : typed.substring(colon + 1).split(",")) {
            try {
                int g = Integer.parseInt(part.strip());
                if (g < 0) {
                    throw new NumberFormatException();
                }
                if (!gpus.contains(g)) {
                    gpus.add(g);
                }
            } catch (NumberFormatException e) {
                throw NvidbException.usage("invalid GPU index '" + part + "' in lane name '" + typed + "'." + hint);
            }
        }
        String node;
        try {
            node = nodeResolver.apply(typed.substring(0, colon));
        } catch (NvidbException e) {
            throw new NvidbException(e.code(), "unknown node in lane '" + typed + "': " + e.getMessage());
        }
        gpus.sort(Comparator.naturalOrder());
        String name = node + ":" + String.join(",", gpus.stream().map(String::valueOf).toList());
        store.lanes.create(name, node, gpus, nvidb.core.api.Times.now());
        return new Resolved(name, node, gpus);
    }

    private static LaneRecord matchExisting(String typed, List<LaneRecord> lanes) {
        String lower = typed.toLowerCase(Locale.ROOT);
        List<LaneRecord> ci = new ArrayList<>();
        List<LaneRecord> prefix = new ArrayList<>();
        for (LaneRecord l : lanes) {
            if (l.name().equals(typed)) {
                return l;
            }
            String n = l.name().toLowerCase(Locale.ROOT);
            if (n.equals(lower)) {
                ci.add(l);
            } else if (n.startsWith(lower) && !typed.contains(":")) {
                // Only a node prefix is completed: "box:0" names GPU 0, never lane "box:0,1" or "box:10".
                prefix.add(l);
            }
        }
        if (ci.size() == 1) {
            return ci.getFirst();
        }
        if (ci.isEmpty() && prefix.size() == 1) {
            return prefix.getFirst();
        }
        return null;
    }

    /** Lane names that a typed name matches case-insensitively or as a prefix (for ambiguity errors). */
    private static List<String> prefixMatches(String typed, List<LaneRecord> lanes) {
        String lower = typed.toLowerCase(Locale.ROOT);
        List<String> exact = new ArrayList<>();
        List<String> prefix = new ArrayList<>();
        for (LaneRecord l : lanes) {
            String n = l.name().toLowerCase(Locale.ROOT);
            if (n.equals(lower)) {
                exact.add(l.name());
            } else if (n.startsWith(lower)) {
                prefix.add(l.name());
            }
        }
        return exact.isEmpty() ? prefix : exact;
    }

    /** The lane's queued (pending) jobs in running order. */
    List<Job> queued(String lane) {
        return store.jobs.inStates(List.of(JobState.PENDING)).stream()
                .filter(j -> lane.equals(j.lane()))
                .sorted(Job.LANE_ORDER)
                .toList();
    }

    /** Moves a queued job to {@code head}, {@code tail} or a 1-based slot; returns its new slot. */
    public int move(long id, String lane, String at, Instant now) {
        List<Job> order = new ArrayList<>(queued(lane));
        int from = -1;
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).id() == id) {
                from = i;
            }
        }
        if (from < 0) {
            throw NvidbException.conflict("job " + id + " is not queued in lane '" + lane + "'");
        }
        Job job = order.remove(from);
        int slot = slot(at, order.size() + 1);
        order.add(slot - 1, job);
        renumber(lane, order, now);
        return slot;
    }

    static int slot(String at, int size) {
        String a = at.strip().toLowerCase(Locale.ROOT);
        if (a.equals("head")) {
            return 1;
        }
        if (a.equals("tail")) {
            return size;
        }
        try {
            // Any size of number: a slot past the end goes to the end, as --help says, however far past.
            BigInteger n = new BigInteger(a);
            if (n.signum() < 1) {
                throw new NumberFormatException();
            }
            return n.min(BigInteger.valueOf(size)).intValueExact();
        } catch (NumberFormatException e) {
            throw NvidbException.usage("invalid position '" + at + "'; use head, tail or a 1-based slot");
        }
    }

    /** Rewrites lane_seq so the queued jobs run in {@code order}, after anything running. */
    void renumber(String lane, List<Job> order, Instant now) {
        long base = store.jobs.inStates(List.of(JobState.RUNNING)).stream()
                .filter(j -> lane.equals(j.lane()) && j.laneSeq() != null)
                .mapToLong(Job::laneSeq).max().orElse(0);
        long seq = base;
        for (Job j : order) {
            seq += 1000;
            if (j.laneSeq() == null || j.laneSeq() != seq) {
                store.jobs.setLaneSeq(j.id(), seq, now);
            }
        }
    }
}
