package nvidb.cli.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import nvidb.core.api.Sizes;
import nvidb.core.api.UserStanding;

/** The USERS block of {@code queue status}: each user's fair share, what they run and wait for, their limits. */
public final class UserViews {
    private UserViews() {
    }

    /** Whether the block says anything: several users, or limits of {@code queue.users}. */
    public static boolean worthShowing(List<UserStanding> users) {
        return users.size() > 1 || users.stream().anyMatch(u -> limits(u) != null);
    }

    public static String users(List<UserStanding> users) {
        Table t = new Table("USER", "SHARE", "USAGE (GPU-h)", "GPUS", "RUNNING", "PENDING", "LIMITS");
        for (UserStanding u : users) {
            t.row(u.user(), String.format(Locale.ROOT, "%s (%.0f%%)", weight(u.share()), u.sharePercent()),
                    String.format(Locale.ROOT, "%.1f (%.0f%%)", u.usageGpuHours(), u.usagePercent()), u.runningGpus(),
                    u.running(), u.pending(), limits(u) == null ? "-" : limits(u));
        }
        return "USERS  fair share: the next job comes from the user whose usage is furthest below their share\n"
                + t.render("  ");
    }

    private static String weight(double w) {
        return w == Math.rint(w) ? String.valueOf((long) w) : String.valueOf(w);
    }

    /** {@code gpus≤4 running≤8 pending≤100 vram≤80.0G}, or null when none applies. */
    private static String limits(UserStanding u) {
        List<String> parts = new ArrayList<>();
        if (u.maxGpus() != null) {
            parts.add("gpus≤" + u.maxGpus());
        }
        if (u.maxRunning() != null) {
            parts.add("running≤" + u.maxRunning());
        }
        if (u.maxPending() != null) {
            parts.add("pending≤" + u.maxPending());
        }
        if (u.maxVramMb() != null) {
            parts.add("vram≤" + Sizes.format(u.maxVramMb()));
        }
        return parts.isEmpty() ? null : String.join(" ", parts);
    }
}
