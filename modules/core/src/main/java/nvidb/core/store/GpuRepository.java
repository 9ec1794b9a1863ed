package nvidb.core.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
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
import nvidb.core.api.Json;

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
    /** The keys of a process in {@code processes_json}: the record's components, in its order. */
    private static final List<String> PROCESS_KEYS = List.of("pid", "memMb", "name", "user", "jobId", "jobName", "managed");
    /** A value {@link #streamedProcesses} leaves to the mapper. */
    private static final Object INVALID = new Object();

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
     * {@code processes_json}: the processes as the mapper writes the records, written from maps in
     * the records' component order so that no pass pays for the mapper's introspection of the
     * record type (see {@link #processes} for what that costs).
     */
    static String processesJson(List<GpuState.GpuProcessView> processes) {
        List<Map<String, Object>> rows = new ArrayList<>(processes.size());
        for (GpuState.GpuProcessView p : processes) {
            Object[] values = {p.pid(), p.memMb(), p.name(), p.user(), p.jobId(), p.jobName(), p.managed()};
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                row.put(PROCESS_KEYS.get(i), values[i]);
            }
            rows.add(row);
        }
        return Json.write(rows);
    }

    /**
     * Reads {@code processes_json}; unreadable text reads as no processes. The text
     * {@link #processesJson} writes is read with the streaming parser: reading it into the records
     * with the mapper cost 24-31 ms more of a whole {@code nvidb queue status} or {@code queue nodes}
     * (bench/json-codec.sh). Anything else is the mapper's to read; GpuProcessesJsonPropertyTest
     * checks the two agree.
     */
    static List<GpuState.GpuProcessView> processes(String json) {
        List<GpuState.GpuProcessView> streamed = streamedProcesses(json);
        if (streamed != null) {
            return streamed;
        }
        try {
            return Json.read(json, new TypeReference<List<GpuState.GpuProcessView>>() { });
        } catch (JsonProcessingException e) {
            return new ArrayList<>();
        }
    }

    /**
     * The processes when {@code json} is an array of objects that each hold every key of
     * {@link #PROCESS_KEYS} once, each value of its own JSON type; null for anything else (a
     * missing, repeated or unknown key, a value the mapper would coerce).
     */
    static List<GpuState.GpuProcessView> streamedProcesses(String json) {
        try (JsonParser p = Json.parser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            List<GpuState.GpuProcessView> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    return null;
                }
                Object[] v = new Object[PROCESS_KEYS.size()];
                int seen = 0;
                for (t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                    int key = PROCESS_KEYS.indexOf(p.currentName());
                    if (key < 0 || (seen & 1 << key) != 0) {
                        return null;
                    }
                    seen |= 1 << key;
                    v[key] = processValue(p, p.nextToken(), key);
                    if (v[key] == INVALID) {
                        return null;
                    }
                }
                if (t != JsonToken.END_OBJECT || seen != (1 << PROCESS_KEYS.size()) - 1) {
                    return null;
                }
                out.add(new GpuState.GpuProcessView((Integer) v[0], (Integer) v[1], (String) v[2], (String) v[3],
                        (Long) v[4], (String) v[5], (Boolean) v[6]));
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The value of {@code PROCESS_KEYS[key]} at token {@code t}; {@link #INVALID} unless it is of the component's own type. */
    private static Object processValue(JsonParser p, JsonToken t, int key) throws IOException {
        boolean nullable = key != 0 && key != 6; // pid and managed are primitives: a null is the mapper's to coerce
        if (t == JsonToken.VALUE_NULL) {
            return nullable ? null : INVALID;
        }
        return switch (key) {
            case 0, 1 -> t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT
                    ? (Object) p.getIntValue() : INVALID;
            case 4 -> t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER
                    ? (Object) p.getLongValue() : INVALID;
            case 6 -> t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE ? (Object) (t == JsonToken.VALUE_TRUE) : INVALID;
            default -> t == JsonToken.VALUE_STRING ? p.getText() : INVALID;
        };
    }
}
