package nvidb.core.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.GpuState;

/**
 * The {@code gpus} table and each GPU's {@code gpu_processes}: a cache of the last probe,
 * replaced wholesale per node.
 */
public final class GpuRepository {
    private static final String DELETE_NODE = "DELETE FROM gpus WHERE node = ?";
    private static final String DELETE_NODE_PROCESSES = "DELETE FROM gpu_processes WHERE node = ?";
    private static final String INSERT = """
            INSERT INTO gpus (node, gpu_index, uuid, name, mem_total_mb, mem_used_mb, util_percent, mem_util_percent,
                              temperature_c, external_mem_mb, external_procs, queue_mem_mb, reserved_mb, queue_jobs,
                              attribution, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String INSERT_PROCESS = """
            INSERT INTO gpu_processes (node, gpu_index, position, pid, mem_mb, name, user, job_id, job_name, managed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String ALL = "SELECT * FROM gpus ORDER BY node, gpu_index";
    private static final String ALL_PROCESSES = """
            SELECT node, gpu_index, pid, mem_mb, name, user, job_id, job_name, managed FROM gpu_processes
            ORDER BY node, gpu_index, position
            """;

    private static final String LARGEST = "SELECT MAX(mem_total_mb) FROM gpus WHERE ? IS NULL OR node = ?";

    private final Database db;

    public GpuRepository(Database db) {
        this.db = db;
    }

    /** The largest card's memory the last probes saw, on {@code node} or (null) anywhere; 0 when none is known. */
    public long largestTotalMb(String node) {
        return Rows.sql(() -> {
            try (PreparedStatement ps = db.connection().prepareStatement(LARGEST)) {
                Rows.bind(ps, node, node);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0L;
                }
            }
        });
    }

    /** Replaces one node's rows with {@code gpus} (none: the node offers no GPU). */
    public void replace(String node, List<GpuState> gpus) {
        Rows.sql(() -> {
            for (String delete : List.of(DELETE_NODE, DELETE_NODE_PROCESSES)) {
                try (PreparedStatement del = db.connection().prepareStatement(delete)) {
                    del.setString(1, node);
                    del.executeUpdate();
                }
            }
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT);
                 PreparedStatement proc = db.connection().prepareStatement(INSERT_PROCESS)) {
                for (GpuState g : gpus) {
                    Rows.bind(ps, node, g.index(), g.uuid(), g.name(), g.memTotalMb(), g.memUsedMb(), g.utilPercent(),
                            g.memUtilPercent(), g.temperatureC(), g.externalMemMb(), g.externalProcs(), g.queueMemMb(),
                            g.reservedMb(), g.queueJobs(), g.attribution(), g.updatedAt());
                    ps.executeUpdate();
                    int position = 0;
                    for (GpuState.GpuProcessView p : g.processes()) {
                        Rows.bind(proc, node, g.index(), position++, p.pid(), p.memMb(), p.name(), p.user(), p.jobId(),
                                p.jobName(), p.managed());
                        proc.executeUpdate();
                    }
                }
            }
            return null;
        });
    }

    /**
     * Every GPU row. {@code free_mb} is not stored: it depends on the headroom setting of the
     * reader, so it is computed from the stored parts with {@code headroomMb}.
     */
    public List<GpuState> all(long headroomMb) {
        return Rows.sql(() -> {
            Map<String, List<GpuState.GpuProcessView>> processes = processes();
            try (PreparedStatement ps = db.connection().prepareStatement(ALL); ResultSet rs = ps.executeQuery()) {
                List<GpuState> out = new ArrayList<>();
                while (rs.next()) {
                    List<GpuState.GpuProcessView> procs = processes.get(key(rs.getString("node"), rs.getInt("gpu_index")));
                    out.add(map(rs, headroomMb, procs == null ? List.of() : procs));
                }
                return out;
            }
        });
    }

    /** Every GPU's processes, by {@link #key}: a few rows per GPU. */
    private Map<String, List<GpuState.GpuProcessView>> processes() throws SQLException {
        Map<String, List<GpuState.GpuProcessView>> out = new HashMap<>();
        try (PreparedStatement ps = db.connection().prepareStatement(ALL_PROCESSES); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.computeIfAbsent(key(rs.getString("node"), rs.getInt("gpu_index")), k -> new ArrayList<>())
                        .add(new GpuState.GpuProcessView(rs.getInt("pid"), Rows.intOrNull(rs, "mem_mb"),
                                rs.getString("name"), rs.getString("user"), Rows.longOrNull(rs, "job_id"),
                                rs.getString("job_name"), rs.getInt("managed") != 0));
            }
        }
        return out;
    }

    private static String key(String node, int gpuIndex) {
        return node + "\u0000" + gpuIndex;
    }

    private static GpuState map(ResultSet rs, long headroomMb, List<GpuState.GpuProcessView> procs) throws SQLException {
        Integer total = Rows.intOrNull(rs, "mem_total_mb");
        long external = rs.getLong("external_mem_mb");
        long reserved = rs.getLong("reserved_mb");
        long free = Math.max(0, (total == null ? 0 : total) - external - reserved - headroomMb);
        return new GpuState(rs.getString("node"), rs.getInt("gpu_index"), rs.getString("uuid"), rs.getString("name"),
                total, Rows.intOrNull(rs, "mem_used_mb"), Rows.intOrNull(rs, "util_percent"),
                Rows.intOrNull(rs, "mem_util_percent"), Rows.intOrNull(rs, "temperature_c"), external,
                rs.getInt("external_procs"), rs.getLong("queue_mem_mb"), reserved, rs.getInt("queue_jobs"),
                rs.getString("attribution"), procs, free, Rows.instant(rs, "updated_at"));
    }
}
