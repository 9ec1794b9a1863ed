package nvidb.core.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Times;
import nvidb.core.store.Store;
import nvidb.core.store.UsageRepository;

/**
 * Sizes every waiting {@code --vram auto} job again before placement: a family that finished runs
 * since the job was submitted (a sweep's first runs, for its later ones) has taught a figure, and
 * a first run's whole GPU is known once a pass has seen the GPUs. A job handed to a node or runner
 * keeps its figure; so does one requeued bigger after running out of memory.
 */
final class AutoVramPass {
    private final Store store;
    private final VramSizing sizing;

    AutoVramPass(Store store, VramSizing sizing) {
        this.store = store;
        this.sizing = sizing;
    }

    void run() {
        List<UsageRepository.AutoPending> waiting = store.db.read(store.usage::autoPending);
        if (waiting.isEmpty()) {
            return;
        }
        // One answer per family in a pass: a sweep of 500 runs asks once.
        Map<String, VramSizing.Choice> choices = new HashMap<>();
        List<Runnable> changes = new ArrayList<>();
        Instant now = Times.now();
        for (UsageRepository.AutoPending j : waiting) {
            Long sweep = j.sweepId();
            String key = j.nameFamily() + "\u0000" + sweep + "\u0000" + j.commandFamily() + "\u0000" + j.node() + "\u0000"
                    + (j.gpus() > 0);
            VramSizing.Choice c = choices.computeIfAbsent(key,
                    k -> sizing.auto(j.gpus(), j.nameFamily(), sweep, j.commandFamily(), j.node()));
            if (c.vramMb() != j.vramMb() || !c.source().equals(j.vramSource())) {
                changes.add(() -> store.usage.reserve(j.id(), c.vramMb(), c.source(), now));
            }
        }
        if (!changes.isEmpty()) {
            store.db.write(() -> {
                changes.forEach(Runnable::run);
                return null;
            });
        }
    }
}
