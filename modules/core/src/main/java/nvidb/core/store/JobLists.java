package nvidb.core.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's env, dependencies, tags and GPUs: rows of child tables (schema 4), each list in its
 * written order. Reading jobs takes two statements in step: the jobs, and the lists of exactly
 * those jobs in the same id order ({@link Cursor}), so a listing of every job still holds one job
 * at a time and parses nothing.
 */
final class JobLists {
    /** Which list a row of {@link #LISTS} belongs to: its {@code list} column. */
    private static final int ENV = 0;
    private static final int DEPENDS_ON = 1;
    private static final int DEPENDS_ANY = 2;
    private static final int TAGS = 3;
    private static final int GPU_IDS = 4;

    /**
     * The lists of the jobs that the statement in {@code ids} selects (its text follows
     * {@code ids(id) AS}); then ordered by job, in the direction the caller appends, then list and
     * position.
     */
    private static final String LISTS = """
            SELECT job_id, 0 AS list, position, name, value FROM job_env WHERE job_id IN ids
            UNION ALL SELECT job_id, CASE kind WHEN 'all' THEN 1 ELSE 2 END, position, NULL, prerequisite
                FROM job_dependencies WHERE job_id IN ids
            UNION ALL SELECT job_id, 3, position, NULL, tag FROM job_tags WHERE job_id IN ids
            UNION ALL SELECT job_id, 4, position, NULL, gpu_index FROM job_gpus WHERE job_id IN ids
            """;

    /**
     * The lists of one job ({@code ?1}), in no order: sorting the union made SQLite build a
     * temporary B-tree per part, each with a page cache of its own that the kernel faults in
     * (~1.7 ms a read); {@link #ofJob} puts the few rows in order instead.
     */
    private static final String LISTS_OF_JOB = """
            SELECT job_id, 0 AS list, position, name, value FROM job_env WHERE job_id = ?1
            UNION ALL SELECT job_id, CASE kind WHEN 'all' THEN 1 ELSE 2 END, position, NULL, prerequisite
                FROM job_dependencies WHERE job_id = ?1
            UNION ALL SELECT job_id, 3, position, NULL, tag FROM job_tags WHERE job_id = ?1
            UNION ALL SELECT job_id, 4, position, NULL, gpu_index FROM job_gpus WHERE job_id = ?1
            """;

    private static final String INSERT_ENV = "INSERT INTO job_env (job_id, position, name, value) VALUES (?, ?, ?, ?)";
    private static final String INSERT_DEPENDENCY =
            "INSERT INTO job_dependencies (job_id, kind, position, prerequisite) VALUES (?, ?, ?, ?)";
    private static final String INSERT_TAG = "INSERT INTO job_tags (job_id, position, tag) VALUES (?, ?, ?)";
    private static final String INSERT_GPU = "INSERT INTO job_gpus (job_id, position, gpu_index) VALUES (?, ?, ?)";
    private static final String DELETE_DEPENDENCIES = "DELETE FROM job_dependencies WHERE job_id = ? AND kind = ?";
    private static final String DELETE_GPUS = "DELETE FROM job_gpus WHERE job_id = ?";

    private JobLists() {
    }

    /** A job's lists as read: never null, the env in its written order. */
    record Lists(Map<String, String> env, List<Long> dependsOn, List<Long> dependsAny, List<String> tags,
                 List<Integer> gpuIds) {
        static Lists empty() {
            return new Lists(new LinkedHashMap<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                    new ArrayList<>());
        }
    }

    /** Writes the lists of a job just inserted. */
    static void insert(Connection c, long jobId, Map<String, String> env, List<Long> dependsOn, List<Long> dependsAny,
                       List<String> tags) throws SQLException {
        if (!env.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(INSERT_ENV)) {
                int position = 0;
                for (Map.Entry<String, String> e : env.entrySet()) {
                    Rows.bind(ps, jobId, position++, e.getKey(), e.getValue());
                    ps.executeUpdate();
                }
            }
        }
        insertDependencies(c, jobId, "all", dependsOn);
        insertDependencies(c, jobId, "any", dependsAny);
        if (!tags.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(INSERT_TAG)) {
                for (int i = 0; i < tags.size(); i++) {
                    Rows.bind(ps, jobId, i, tags.get(i));
                    ps.executeUpdate();
                }
            }
        }
    }

    /** Replaces {@code --after} ({@code any} false) or {@code --after-any} prerequisites. */
    static void replaceDependencies(Connection c, long jobId, boolean any, List<Long> ids) throws SQLException {
        String kind = any ? "any" : "all";
        try (PreparedStatement ps = c.prepareStatement(DELETE_DEPENDENCIES)) {
            Rows.bind(ps, jobId, kind);
            ps.executeUpdate();
        }
        insertDependencies(c, jobId, kind, ids);
    }

    /** Replaces the GPUs a job holds (none: it holds none). */
    static void replaceGpus(Connection c, long jobId, List<Integer> gpuIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_GPUS)) {
            ps.setLong(1, jobId);
            ps.executeUpdate();
        }
        if (!gpuIds.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(INSERT_GPU)) {
                for (int i = 0; i < gpuIds.size(); i++) {
                    Rows.bind(ps, jobId, i, gpuIds.get(i));
                    ps.executeUpdate();
                }
            }
        }
    }

    private static void insertDependencies(Connection c, long jobId, String kind, List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_DEPENDENCY)) {
            for (int i = 0; i < ids.size(); i++) {
                Rows.bind(ps, jobId, kind, i, ids.get(i));
                ps.executeUpdate();
            }
        }
    }

    /**
     * The lists of the jobs {@code jobsSql} selects, in the same order by id ({@code descending}
     * as the jobs statement orders them). Opened while the jobs statement is open, it reads the
     * same snapshot of the database: one read transaction spans both.
     */
    static Cursor open(Connection c, String jobsSql, boolean descending, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement("WITH ids(id) AS (SELECT id FROM (" + jobsSql + ")) " + LISTS
                + " ORDER BY job_id" + (descending ? " DESC" : "") + ", list, position");
        try {
            Rows.bind(ps, args);
            return new Cursor(ps, ps.executeQuery(), descending);
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /**
     * The lists of job {@code jobId}. Called while the statement that read the job's row is open,
     * so both read the same snapshot.
     */
    static Lists ofJob(Connection c, long jobId) throws SQLException {
        List<Entry> entries = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(LISTS_OF_JOB)) {
            ps.setLong(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    entries.add(new Entry(rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getString(5), rs.getLong(5)));
                }
            }
        }
        entries.sort(null);
        Lists lists = Lists.empty();
        for (Entry e : entries) {
            put(lists, e.list, e.name, e.text, e.number);
        }
        return lists;
    }

    /** One list row of one job: which list, where in it, and its value as text and as a number. */
    private record Entry(int list, int position, String name, String text, long number) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            return list != o.list ? Integer.compare(list, o.list) : Integer.compare(position, o.position);
        }
    }

    /** Appends a row's value to its list; {@code text} and {@code number} are the row's value read both ways. */
    private static void put(Lists lists, int list, String name, String text, long number) {
        if (list == ENV) {
            lists.env().put(name, text);
        } else if (list == DEPENDS_ON) {
            lists.dependsOn().add(number);
        } else if (list == DEPENDS_ANY) {
            lists.dependsAny().add(number);
        } else if (list == TAGS) {
            lists.tags().add(text);
        } else if (list == GPU_IDS) {
            lists.gpuIds().add((int) number);
        }
    }

    /** The list rows of a run of jobs, handed out job by job in the jobs' order. */
    static final class Cursor implements AutoCloseable {
        private final Statement statement;
        private final ResultSet rs;
        private final boolean descending;
        /** Whether {@link #rs} stands on a row not yet handed out. */
        private boolean pending;

        private Cursor(Statement statement, ResultSet rs, boolean descending) throws SQLException {
            this.statement = statement;
            this.rs = rs;
            this.descending = descending;
            this.pending = rs.next();
        }

        /** The lists of job {@code id}; the jobs must be asked for in the cursor's order. */
        Lists take(long id) throws SQLException {
            Lists lists = Lists.empty();
            while (pending) {
                long jobId = rs.getLong(1);
                if (jobId != id && (descending ? jobId < id : jobId > id)) {
                    break; // a later job's row
                }
                if (jobId == id) {
                    add(lists);
                } // else: a job the jobs statement did not see (written between the two)
                pending = rs.next();
            }
            return lists;
        }

        private void add(Lists lists) throws SQLException {
            int list = rs.getInt(2);
            boolean numeric = list != ENV && list != TAGS;
            put(lists, list, rs.getString(4), numeric ? null : rs.getString(5), numeric ? rs.getLong(5) : 0);
        }

        @Override
        public void close() throws SQLException {
            try (statement) {
                rs.close();
            }
        }
    }
}
