package nvidb.core.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.GpuState;

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
                            g.reservedMb(), g.queueJobs(), g.attribution(), processesJson(g.processes()), g.updatedAt());
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
            procs = processes(json);
        }
        return new GpuState(rs.getString("node"), rs.getInt("gpu_index"), rs.getString("uuid"), rs.getString("name"),
                total, Rows.intOrNull(rs, "mem_used_mb"), Rows.intOrNull(rs, "util_percent"),
                Rows.intOrNull(rs, "mem_util_percent"), Rows.intOrNull(rs, "temperature_c"), external,
                rs.getInt("external_procs"), rs.getLong("queue_mem_mb"), reserved, rs.getInt("queue_jobs"),
                rs.getString("attribution"), procs, free, Rows.instant(rs, "updated_at"));
    }

    /**
     * {@code processes_json}: the processes as the databind mapper writes the records (their
     * components in declaration order), written here without one.
     */
    static String processesJson(List<GpuState.GpuProcessView> processes) {
        List<Map<String, Object>> rows = new ArrayList<>(processes.size());
        for (GpuState.GpuProcessView p : processes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("pid", p.pid());
            row.put("memMb", p.memMb());
            row.put("name", p.name());
            row.put("user", p.user());
            row.put("jobId", p.jobId());
            row.put("jobName", p.jobName());
            row.put("managed", p.managed());
            rows.add(row);
        }
        return Json.write(rows);
    }

    /** Reads {@code processes_json}; unreadable text reads as no processes. */
    static List<GpuState.GpuProcessView> processes(String json) {
        List<GpuState.GpuProcessView> fast = fastProcesses(json);
        if (fast != null) {
            return fast;
        }
        try {
            return Json.MAPPER.readValue(json, new TypeReference<List<GpuState.GpuProcessView>>() { });
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return new ArrayList<>();
        }
    }

    /**
     * The text {@link #processesJson} writes: every record complete, each value of its own JSON
     * type. Null for anything else (a missing or unknown key, a value to coerce), which the mapper
     * reads instead, so that such text reads exactly as it always has.
     */
    private static List<GpuState.GpuProcessView> fastProcesses(String json) {
        try (JsonParser p = Json.FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<GpuState.GpuProcessView> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    return null;
                }
                Integer pid = null;
                Integer memMb = null;
                String name = null;
                String user = null;
                Long jobId = null;
                String jobName = null;
                Boolean managed = null;
                int seen = 0;
                for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                    String key = p.currentName();
                    JsonToken v = p.nextToken();
                    boolean isNull = v == JsonToken.VALUE_NULL;
                    boolean isInt = v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
                    boolean isLong = v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
                    boolean isText = v == JsonToken.VALUE_STRING;
                    int bit;
                    switch (key) {
                        case "pid" -> {
                            if (!isInt) {
                                return null;
                            }
                            pid = p.getIntValue();
                            bit = 1;
                        }
                        case "memMb" -> {
                            if (!isInt && !isNull) {
                                return null;
                            }
                            memMb = isNull ? null : p.getIntValue();
                            bit = 2;
                        }
                        case "name" -> {
                            if (!isText && !isNull) {
                                return null;
                            }
                            name = isNull ? null : p.getText();
                            bit = 4;
                        }
                        case "user" -> {
                            if (!isText && !isNull) {
                                return null;
                            }
                            user = isNull ? null : p.getText();
                            bit = 8;
                        }
                        case "jobId" -> {
                            if (!isLong && !isNull) {
                                return null;
                            }
                            jobId = isNull ? null : p.getLongValue();
                            bit = 16;
                        }
                        case "jobName" -> {
                            if (!isText && !isNull) {
                                return null;
                            }
                            jobName = isNull ? null : p.getText();
                            bit = 32;
                        }
                        case "managed" -> {
                            if (v != JsonToken.VALUE_TRUE && v != JsonToken.VALUE_FALSE) {
                                return null;
                            }
                            managed = v == JsonToken.VALUE_TRUE;
                            bit = 64;
                        }
                        default -> {
                            return null;
                        }
                    }
                    if ((seen & bit) != 0) {
                        return null;
                    }
                    seen |= bit;
                }
                if (t != JsonToken.END_OBJECT || seen != 127) {
                    return null;
                }
                out.add(new GpuState.GpuProcessView(pid, memMb, name, user, jobId, jobName, managed));
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

}
