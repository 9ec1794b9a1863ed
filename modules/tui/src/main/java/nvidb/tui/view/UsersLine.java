package nvidb.tui.view;

import java.util.List;
import java.util.Locale;
import nvidb.core.api.UserStanding;

/**
 * The users line under the header, when several people share the queue: each user's running GPUs,
 * waiting jobs, and their part of recent GPU time against their fair share, as {@code queue status}
 * shows them. A user over their share is dimmed: fair share lets the others go first.
 */
final class UsersLine {
    private UsersLine() {
    }

    static List<Line> lines(List<UserStanding> users) {
        if (users.size() < 2) {
            return List.of();
        }
        Line line = new Line().add(" users", Style.BOLD);
        for (UserStanding u : users) {
            boolean over = u.usagePercent() > u.sharePercent();
            line.add("  " + Text.clean(u.user()), over ? Style.DIM : Style.NORMAL)
                    .add(String.format(Locale.ROOT, " %d GPU%s %d waiting, used %.0f%% for a %.0f%% share",
                            u.runningGpus(), u.runningGpus() == 1 ? "" : "s", u.pending(), u.usagePercent(),
                            u.sharePercent()), over ? Style.DIM : Style.NORMAL);
        }
        return List.of(line);
    }
}
