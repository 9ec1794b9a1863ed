package nvidb.core.scheduler;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.lab.FairShare;

/**
 * When fair share holds a job: the pass found no room for it, and a job of another user started
 * in the same pass that the plain order (priority, then age) would have put after it. Its reason
 * names who went first and why, in the figures {@code queue status} shows.
 */
final class FairShareWaits {
    private FairShareWaits() {
    }

    static void note(List<Job> noRoom, List<Job> started, Map<String, FairShare.Standing> standings,
                     Map<Long, String> waits) {
        for (Job waiting : noRoom) {
            String user = FairShare.userOf(waiting);
            for (Job first : started) {
                String other = FairShare.userOf(first);
                if (!other.equals(user) && Job.DISPATCH_ORDER.compare(waiting, first) < 0) {
                    waits.putIfAbsent(waiting.id(), reason(standings.get(user), standings.get(other)));
                    break;
                }
            }
        }
    }

    /** {@code fair share: bob goes first (bob used 2% of recent GPU time for a 50% share; alice 98% for 50%)}. */
    static String reason(FairShare.Standing held, FairShare.Standing first) {
        if (held == null || first == null) {
            return "fair share: another user's job goes first";
        }
        return String.format(Locale.ROOT, "fair share: %s goes first (%s used %.0f%% of recent GPU time for a %.0f%%"
                        + " share; %s %.0f%% for %.0f%%)", first.user(), first.user(), first.usagePercent(),
                first.sharePercent(), held.user(), held.usagePercent(), held.sharePercent());
    }
}
