package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.Times;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link JobRepository#each}: the rows {@code search} lists, handed over one at a time, in either order. */
class JobEachTest {
    @TempDir
    Path tmp;

    @Test
    void itHandsOverWhatSearchListsNewestOrOldestFirst() {
        try (Store s = Store.open(tmp.resolve("queue.db"))) {
            for (int i = 0; i < 6; i++) {
                s.db.write(() -> s.jobs.insert(StoreFixtures.job("j"), Times.now()));
            }
            assertEquals(List.of(6L, 5L, 4L, 3L, 2L, 1L), each(s, 0, false));
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), each(s, 0, true));
            // With a limit, the newest that many either way.
            assertEquals(List.of(6L, 5L, 4L), each(s, 3, false));
            assertEquals(List.of(4L, 5L, 6L), each(s, 3, true));
            assertEquals(each(s, 3, false), s.jobs.search(Set.of(JobState.PENDING), false, null, null, null, 3).stream()
                    .map(Job::id).toList());
        }
    }

    private static List<Long> each(Store s, int limit, boolean oldestFirst) {
        List<Long> ids = new ArrayList<>();
        int n = s.jobs.each(Set.of(JobState.PENDING), false, null, null, null, limit, oldestFirst, j -> ids.add(j.id()));
        assertEquals(ids.size(), n);
        return ids;
    }
}
