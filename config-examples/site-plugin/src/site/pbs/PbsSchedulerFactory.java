package site.pbs;

import java.util.Map;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.config.ConfigSection;

/**
 * {@code transport: pbs}: a queue of an OpenPBS cluster as one node of nvidb. A server entry that
 * names it is a batch partition; nvidb reaches the cluster's login over the transport its
 * {@code login:} names (ssh unless written) and runs there the shell {@link PbsScheduler} writes.
 * Its own keys: {@code pbs_queue} (required), {@code gpu_vram_mb}, {@code max_jobs}, {@code burst}.
 */
public final class PbsSchedulerFactory implements BatchSchedulerFactory {

    @Override
    public String name() {
        return "pbs";
    }

    /** Reads (so declares) every key of its own; a key no one reads is refused by nvidb. */
    @Override
    public void validate(ConfigSection server) {
        String queue = server.string("pbs_queue", null);
        if (queue == null || queue.isBlank()) {
            throw server.error("pbs_queue", "is missing: a pbs server needs the queue its jobs go to (pbs_queue: gpu)");
        }
        server.integer("gpu_vram_mb", 0, 0);
        server.integer("max_jobs", 0, 0);
        server.bool("burst", false);
    }

    /** {@code entry} holds the keys {@link #validate} accepted; numbers come as {@code Long}. */
    @Override
    public BatchScheduler create(Map<String, Object> entry) {
        return new PbsScheduler(String.valueOf(entry.get("pbs_queue")), number(entry, "gpu_vram_mb"),
                (int) number(entry, "max_jobs"), Boolean.TRUE.equals(entry.get("burst")));
    }

    private static long number(Map<String, Object> entry, String key) {
        return entry.get(key) instanceof Number n ? n.longValue() : 0;
    }
}
