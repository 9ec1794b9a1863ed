package nvidb.core.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Json;
import nvidb.core.api.Job;
import nvidb.core.config.QueueSettings;
import nvidb.core.lifecycle.Moves;
import nvidb.core.store.Store;
import nvidb.core.store.UsageRepository;

/**
 * The queue's rules for sizing a reservation from what it measured: a family's learned figure
 * ({@code --vram auto}), a first run's whole GPU, and the larger figure after running out of GPU
 * memory. Figures are MiB per GPU, rounded up to {@link #STEP_MB}.
 */
public final class VramSizing {
    public static final long STEP_MB = 256;
    /** How many of a family's newest completed runs are learned from. */
    public static final int HISTORY = 20;
    static final double PERCENTILE = 0.95;

    private final Store store;
    private final QueueSettings settings;

    public VramSizing(Store store, QueueSettings settings) {
        this.store = store;
        this.settings = settings;
    }

    /** {@code mb} rounded up to a multiple of {@link #STEP_MB}. */
    public static long roundUp(double mb) {
        return (long) Math.ceil(mb / STEP_MB) * STEP_MB;
    }

    /** The 95th percentile of {@code peaks} (nearest rank); {@code peaks} must not be empty. */
    public static int percentile95(List<Integer> peaks) {
        List<Integer> sorted = new ArrayList<>(peaks);
        sorted.sort(null);
        int rank = (int) Math.ceil(PERCENTILE * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** A learned reservation: {@code peakMb} plus {@code marginPercent}, rounded up. */
    public static long withMargin(long peakMb, double marginPercent) {
        return roundUp(peakMb * (1 + marginPercent / 100.0));
    }

    /**
     * A job's name family: its name with trailing digits and separators stripped ({@code trainer-3}
     * and {@code trainer_12} are {@code trainer}); null for no name, a name of digits only, or the
     * default stem of an unnamed sweep's runs ({@code sweep12-3}), which names no family across sweeps.
     */
    public static String nameFamily(String name) {
        if (name == null || name.isBlank() || UNNAMED_SWEEP_RUN.matcher(name).matches()) {
            return null;
        }
        String stem = TRAILING_NUMBER.matcher(name.strip()).replaceFirst("");
        return stem.isEmpty() ? null : stem;
    }

    /** A job's command family: its command with every number masked ({@code --lr 0.001 --seed 3} → {@code --lr # --seed #}). */
    public static String commandFamily(String command) {
        return command == null || command.isBlank() ? null
                : NUMBER.matcher(command.strip().replaceAll("\\s+", " ")).replaceAll("#");
    }

    private static final java.util.regex.Pattern TRAILING_NUMBER = java.util.regex.Pattern.compile("[-_.:#\\s0-9]*[0-9][-_.:#\\s0-9]*$");
    private static final java.util.regex.Pattern UNNAMED_SWEEP_RUN = java.util.regex.Pattern.compile("sweep[0-9]+-[0-9]+");
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    /** After running out of GPU memory: max(peak × 1.25, reservation × 1.5), rounded up. */
    public static long afterOom(long vramMb, Integer peakMb) {
        return roundUp(Math.max(peakMb == null ? 0 : peakMb * 1.25, vramMb * 1.5));
    }

    /**
     * The most one GPU could hold for a job pinned to {@code node} (null: any): the largest card's
     * memory less the headroom, as the placement planner judges it; 0 when no GPU is known.
     */
    public long largestHoldMb(String node) {
        long total = store.db.read(() -> store.gpus.largestTotalMb(node));
        return total <= 0 ? 0 : Math.max(0, total - settings.headroomMb());
    }

    /** What a failed job's out-of-memory line means for its retry: the raised figure, capped at the largest GPU. */
    Moves.OutOfMemory outOfMemory(Job job, String line) {
        long largest = largestHoldMb(job.nodeConstraint());
        long raised = afterOom(job.vramMb(), job.learned().peakVramMb());
        long to = largest > 0 ? Math.min(raised, largest) : raised;
        return new Moves.OutOfMemory(line, to > job.vramMb() ? to : null, largest);
    }

    /** A reservation chosen for {@code --vram auto}, and where it came from (stored JSON: {@code vram_source}). */
    public record Choice(long vramMb, String source) {
    }

    /** {@code vram_source} of a figure the job was given: {@code explicit} ({@code --vram}) or {@code default}. */
    public static String source(String kind) {
        return Json.write(Map.of("kind", kind));
    }

    /**
     * {@code --vram auto}: the 95th percentile of the family's last {@link #HISTORY} completed peaks
     * plus {@code queue.auto_vram_margin}, capped at the largest GPU; with no history
     * {@code queue.auto_vram_first}, by default a whole GPU (0 until a pass has seen one: each pass
     * sizes a waiting auto job again before placing it). CPU-only work reserves nothing.
     */
    public Choice auto(int gpus, String nameFamily, Long sweepId, String commandFamily, String node) {
        if (gpus <= 0) {
            return new Choice(0, source("cpu_only"));
        }
        List<UsageRepository.Peak> history = history(nameFamily, sweepId, commandFamily);
        long largest = largestHoldMb(node);
        if (history.isEmpty()) {
            Long first = settings.learning().autoFirstMb();
            return new Choice(first != null ? first : largest, source("first_run"));
        }
        int peak = percentile95(history.stream().map(UsageRepository.Peak::peakMb).toList());
        long mb = withMargin(peak, settings.learning().autoMarginPercent());
        if (largest > 0 && peak <= largest) {
            mb = Math.min(mb, largest);
        }
        Map<String, Object> learned = new LinkedHashMap<>();
        learned.put("kind", "learned");
        learned.put("jobs", history.stream().map(UsageRepository.Peak::jobId).sorted().toList());
        learned.put("peak_mb", peak);
        return new Choice(mb, Json.write(learned));
    }

    /** A family's learned peaks, by the first key with history: its name, its sweep, its command. */
    public List<UsageRepository.Peak> history(String nameFamily, Long sweepId, String commandFamily) {
        return store.db.read(() -> {
            List<UsageRepository.Peak> found = nameFamily == null ? List.of() : store.usage.byName(nameFamily, HISTORY);
            if (found.isEmpty() && sweepId != null) {
                found = store.usage.bySweep(sweepId, HISTORY);
            }
            if (found.isEmpty() && commandFamily != null) {
                found = store.usage.byCommand(commandFamily, HISTORY);
            }
            return found;
        });
    }
}
