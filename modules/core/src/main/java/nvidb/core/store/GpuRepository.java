package nvidb.core.store;

import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.model.GpuState;

/** The {@code gpus} table: a cache of the last probe, replaced wholesale per node. */
public final class GpuRepository {
    private static final String DELETE_NODE = "DELETE FROM gpus WHERE node = ?";
    private static final String INSERT = """
            INSERT INTO gpus (node, gpu_index, uuid, name, mem_total_mb, mem_used_mb, util_percent, mem_util_percent,
                              temperature_c, external_mem_mb, external_procs, queue_mem_mb, reserved_mb, queue_jobs,
                              attribution, processes_json, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String ALL = "SELECT * FROM gpus ORDER BY node, gpu_index";

    private final Database db;

    public GpuRepository(Database db) {
        this.db = db;
    }

    /** Replaces one node's rows with {@code gpus} (none: the node offers no GPU). */
    public void replace(String node, List<GpuState> gpus) {
        Rows.sql(() -> {
            try (PreparedStatement del = db.connection().prepareStatement(DELETE_NODE)) {
                del.setString(1, node);
                del.executeUpdate();
            }
            try (PreparedStatement ps = db.connection().prepareStatement(INSERT)) {
                for (GpuState g : gpus) {
                    Rows.bind(ps, node, g.index(), g.uuid(), g.name(), g.memTotalMb(), g.memUsedMb(), g.utilPercent(),
                            g.memUtilPercent(), g.temperatureC(), g.externalMemMb(), g.externalProcs(), g.queueMemMb(),
                            g.reservedMb(), g.queueJobs(), g.attribution(), Json.write(g.processes()), g.updatedAt());
                    ps.executeUpdate();
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
            try (PreparedStatement ps = db.connection().prepareStatement(ALL); ResultSet rs = ps.executeQuery()) {
                List<GpuState> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(map(rs, headroomMb));
                }
                return out;
            }
        });
    }

    private static GpuState map(ResultSet rs, long headroomMb) throws SQLException {
        Integer total = Rows.intOrNull(rs, "mem_total_mb");
        long external = rs.getLong("external_mem_mb");
        long reserved = rs.getLong("reserved_mb");
        long free = Math.max(0, (total == null ? 0 : total) - external - reserved - headroomMb);
        List<GpuState.GpuProcessView> procs = new ArrayList<>();
        String json = rs.getString("processes_json");
        if (json != null) {
            try {
                procs = Json.MAPPER.readValue(json, new TypeReference<List<GpuState.GpuProcessView>>() { });
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                procs = new ArrayList<>();
            }
        }
        return new GpuState(rs.getString("node"), rs.getInt("gpu_index"), rs.getString("uuid"), rs.getString("name"),
                total, Rows.intOrNull(rs, "mem_used_mb"), Rows.intOrNull(rs, "util_percent"),
                Rows.intOrNull(rs, "mem_util_percent"), Rows.intOrNull(rs, "temperature_c"), external,
                rs.getInt("external_procs"), rs.getLong("queue_mem_mb"), reserved, rs.getInt("queue_jobs"),
                rs.getString("attribution"), procs, free, Rows.instant(rs, "updated_at"));
    }

}
