import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import nvidb.core.scheduler.VramSizing;

/**
 * A simulated lab day, played through nvidb's own sizing rules (VramSizing: the learned figure,
 * the first run's whole GPU, the figure after running out of memory) under three ways of choosing
 * --vram: auto, a fixed guess too low, a fixed guess too high. One pass a minute; placement as the
 * scheduler does it (spread; each running job charged the larger of its reservation and, once a
 * pass has seen it, its use); a GPU physically runs out when its jobs' true peaks add up to more
 * than the card, and the job that arrived last dies of it. Deterministic (seeded).
 *
 * Usage: java -cp 'IMAGE/lib/*' VramDay.java [jobs] [seed]
 */
public class VramDay {
    record Family(String name, double peakMb, double spread, double minutes) {
    }

    static final List<Family> FAMILIES = List.of(
            new Family("bert-finetune", 9000, 0.08, 20), new Family("resnet", 5500, 0.10, 12),
            new Family("llm-lora", 19000, 0.05, 45), new Family("diffusion", 14000, 0.12, 30),
            new Family("rl-agent", 3000, 0.20, 15));
    static final int GPUS = 16;
    static final long CARD_MB = 24564;
    static final long HEADROOM_MB = 512;
    static final long HOLD_MB = CARD_MB - HEADROOM_MB;
    static final int MAX_JOBS_PER_GPU = 4;
    static final int OOM_RETRY = 1;

    static final class Job {
        final int id;
        final Family family;
        final int truePeak;
        final int minutes;
        final int submitAt;
        long vram;
        boolean auto;
        boolean raised;
        int oomRetries;
        int gpu = -1;
        int startedAt = -1;
        int endAt;
        boolean dies;
        String state = "pending";

        Job(int id, Family family, int truePeak, int minutes, int submitAt) {
            this.id = id;
            this.family = family;
            this.truePeak = truePeak;
            this.minutes = minutes;
            this.submitAt = submitAt;
        }
    }

    record Outcome(String policy, double unusedGpuHours, int oomEvents, int lost, double meanWaitMin, int lastEndMin) {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        List<Outcome> outcomes = new ArrayList<>();
        for (String policy : List.of("auto", "low", "high")) {
            outcomes.add(play(policy, day(n, seed)));
        }
        System.out.printf("A lab day: %d jobs in %d families over 8 h, %d GPUs of %d MiB (seed %d)%n%n", n,
                FAMILIES.size(), GPUS, CARD_MB, seed);
        System.out.println("| --vram | GPU-hours reserved but unused | out-of-memory deaths | jobs lost to OOM | mean wait | last job ends |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (Outcome o : outcomes) {
            String name = switch (o.policy()) {
                case "auto" -> "`auto`";
                case "low" -> "fixed, 0.6 × the family's mean peak";
                default -> "fixed, 2 × the family's mean peak (at most a card)";
            };
            System.out.printf("| %s | %.1f | %d | %d | %.0f min | %d h %02d min |%n", name, o.unusedGpuHours(), o.oomEvents(),
                    o.lost(), o.meanWaitMin(), o.lastEndMin() / 60, o.lastEndMin() % 60);
        }
    }

    static List<Job> day(int n, long seed) {
        Random r = new Random(seed);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Family f = FAMILIES.get(r.nextInt(FAMILIES.size()));
            double peak = f.peakMb() * (1 + f.spread() * r.nextGaussian());
            peak = Math.max(f.peakMb() * 0.5, Math.min(Math.min(f.peakMb() * 1.5, CARD_MB - 600), peak));
            int minutes = (int) Math.max(5, f.minutes() * (0.5 + r.nextDouble()));
            jobs.add(new Job(i + 1, f, (int) peak, minutes, r.nextInt(8 * 60)));
        }
        jobs.sort(Comparator.comparingInt((Job j) -> j.submitAt).thenComparingInt(j -> j.id));
        return jobs;
    }

    static Outcome play(String policy, List<Job> jobs) {
        Map<String, List<Integer>> history = new HashMap<>();
        for (Job j : jobs) {
            switch (policy) {
                case "low" -> j.vram = VramSizing.roundUp(j.family.peakMb() * 0.6);
                case "high" -> j.vram = Math.min(HOLD_MB, VramSizing.roundUp(j.family.peakMb() * 2));
                default -> j.auto = true;
            }
        }
        double unusedMbMinutes = 0;
        int oomEvents = 0;
        int done = 0;
        int minute = 0;
        while (done < jobs.size()) {
            // Ends: a job that dies of OOM is requeued bigger while it may, else lost.
            for (Job j : jobs) {
                if (j.state.equals("running") && minute >= j.endAt) {
                    if (j.dies) {
                        oomEvents++;
                        if (j.oomRetries < OOM_RETRY) {
                            long to = Math.min(HOLD_MB, VramSizing.afterOom(j.vram, minute - j.startedAt >= 1 ? j.truePeak : null));
                            if (to > j.vram) {
                                j.oomRetries++;
                                j.vram = to;
                                j.raised = true;
                                j.state = "pending";
                                j.gpu = -1;
                                continue;
                            }
                        }
                        j.state = "lost";
                    } else {
                        j.state = "completed";
                        history.computeIfAbsent(j.family.name(), k -> new ArrayList<>()).add(j.truePeak);
                    }
                    done++;
                }
            }
            // Each pass sizes waiting auto jobs again (AutoVramPass), from the last 20 completed peaks.
            for (Job j : jobs) {
                if (j.auto && !j.raised && j.state.equals("pending") && j.submitAt <= minute) {
                    List<Integer> h = history.getOrDefault(j.family.name(), List.of());
                    List<Integer> last = h.subList(Math.max(0, h.size() - VramSizing.HISTORY), h.size());
                    j.vram = last.isEmpty() ? HOLD_MB : Math.min(HOLD_MB, VramSizing.withMargin(VramSizing.percentile95(last), 15));
                }
            }
            // Placement: in submission order, onto the GPU with the most room that fits (spread).
            long[] charged = new long[GPUS];
            long[] truePeaks = new long[GPUS];
            int[] count = new int[GPUS];
            for (Job j : jobs) {
                if (j.state.equals("running")) {
                    boolean seen = minute - j.startedAt >= 1;
                    charged[j.gpu] += seen ? Math.max(j.vram, j.truePeak) : j.vram;
                    truePeaks[j.gpu] += j.truePeak;
                    count[j.gpu]++;
                    unusedMbMinutes += Math.max(0, j.vram - j.truePeak);
                }
            }
            for (Job j : jobs) {
                if (!j.state.equals("pending") || j.submitAt > minute) {
                    continue;
                }
                int best = -1;
                for (int g = 0; g < GPUS; g++) {
                    long free = CARD_MB - HEADROOM_MB - charged[g];
                    if (count[g] < MAX_JOBS_PER_GPU && free >= j.vram && (best < 0 || charged[g] < charged[best])) {
                        best = g;
                    }
                }
                if (best < 0) {
                    continue;
                }
                j.gpu = best;
                j.state = "running";
                j.startedAt = minute;
                // The card runs out when the true peaks add up past it: the newcomer dies a fifth of the way in.
                j.dies = truePeaks[best] + j.truePeak > CARD_MB;
                j.endAt = minute + (j.dies ? Math.max(1, j.minutes / 5) : j.minutes);
                charged[best] += j.vram;
                truePeaks[best] += j.truePeak;
                count[best]++;
            }
            minute++;
        }
        int lost = (int) jobs.stream().filter(j -> j.state.equals("lost")).count();
        double wait = jobs.stream().filter(j -> j.startedAt >= 0).mapToInt(j -> j.startedAt - j.submitAt).average().orElse(0);
        int lastEnd = jobs.stream().mapToInt(j -> j.endAt).max().orElse(0);
        return new Outcome(policy, unusedMbMinutes / CARD_MB / 60.0, oomEvents, lost, wait, lastEnd);
    }
}
