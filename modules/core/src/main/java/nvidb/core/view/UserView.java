package nvidb.core.view;

import java.util.List;
import nvidb.core.api.UserStanding;

/**
 * A user in {@code queue status --json}'s {@code users}: {@code user}, {@code share} (the weight),
 * {@code share_percent}, {@code usage_gpu_hours} (decayed by {@code queue.fairshare_half_life}),
 * {@code usage_percent}, {@code running_gpus}, {@code running}, {@code pending}, and
 * {@code limits} ({@code max_gpus}, {@code max_running}, {@code max_pending}, {@code max_vram_mb};
 * null: none).
 */
public record UserView(String user, double share, double sharePercent, double usageGpuHours, double usagePercent,
                       int runningGpus, int running, int pending, Limits limits) {
    public record Limits(Integer maxGpus, Integer maxRunning, Integer maxPending, Long maxVramMb) {
    }

    public static UserView of(UserStanding u) {
        return new UserView(u.user(), u.share(), u.sharePercent(), u.usageGpuHours(), u.usagePercent(), u.runningGpus(),
                u.running(), u.pending(), new Limits(u.maxGpus(), u.maxRunning(), u.maxPending(), u.maxVramMb()));
    }

    public static List<UserView> of(List<UserStanding> users) {
        return users.stream().map(UserView::of).toList();
    }
}
