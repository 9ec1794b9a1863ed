package nvidb.core.lab;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.UserStanding;
import nvidb.core.config.LabSettings;
import nvidb.core.store.LabRepository;
import nvidb.core.store.Store;

/**
 * Every user's standing for {@code queue status}, from the same usage fair share orders by: each
 * user with a job waiting or running, with GPU time in the window, or with an entry of their own
 * in {@code queue.users}. Runs inside the caller's read transaction.
 */
public final class Standings {
    private Standings() {
    }

    public static List<UserStanding> read(Store store, LabSettings lab, Instant now) {
        Map<String, LabRepository.Active> active = new HashMap<>();
        for (LabRepository.Active a : store.lab.activeByUser()) {
            active.put(a.user() == null ? FairShare.UNKNOWN_USER : a.user(), a);
        }
        Map<String, Double> usage = FairShare.usage(store, lab, now);
        Map<String, Double> everyone = new HashMap<>(usage);
        lab.users().keySet().forEach(u -> everyone.putIfAbsent(u, 0.0)); // a user of their own entry, idle or not
        Map<String, FairShare.Standing> standings = FairShare.standings(everyone, active.keySet(), lab);
        List<UserStanding> out = new ArrayList<>();
        for (FairShare.Standing s : standings.values()) {
            String u = s.user();
            LabRepository.Active a = active.getOrDefault(u, new LabRepository.Active(u, 0, 0, 0));
            LabSettings.UserPolicy p = lab.of(u.equals(FairShare.UNKNOWN_USER) ? null : u);
            out.add(new UserStanding(u, s.weight(), round(s.sharePercent()), round(s.usageGpuSeconds() / 3600),
                    round(s.usagePercent()), a.runningGpus(), a.running(), a.pending(), p.maxGpus(), p.maxRunning(),
                    p.maxPending(), p.maxVramMb()));
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
