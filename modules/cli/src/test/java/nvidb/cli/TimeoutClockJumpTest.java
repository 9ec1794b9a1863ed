package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import nvidb.core.api.Times;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue host's wall clock jumps while jobs run with a {@code --timeout}. A job's start is
 * stamped on the host's boot clock as well (/proc/uptime, which no one sets), and the pass counts
 * the run time on it: an hour forward must not kill every running job at once, and the limit still
 * holds on the boot clock whatever the wall clock says. A start from another boot (the host
 * rebooted) counts from started_at again. The jump is made where the pass reads it: started_at,
 * stamped by the clock before the jump, is an hour older than the clock after it says.
 */
class TimeoutClockJumpTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/uptime")), "a host with a boot clock (Linux)");
        cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0\n  job_root: " + tmp.resolve("jobs") + "\n");
    }

    private final java.util.List<String> submitted = new java.util.ArrayList<>();

    @AfterEach
    void tearDown() {
        for (String id : submitted) { // a failed check leaves its job running
            cli.run("job", "cancel", id);
        }
    }

    private long running(String timeout) {
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--timeout", timeout, "--", "sleep 120").path("job");
        submitted.add(job.path("id").asText());
        assertEquals("running", job.path("state").asText(), job.toString());
        return job.path("id").asLong();
    }

    private void sql(String statement, Object... values) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement ps = c.prepareStatement(statement)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }

    private String bootId(long id) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement ps = c.prepareStatement("SELECT started_boot_id FROM jobs WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.getString(1);
            }
        }
    }

    private JsonNode afterAPass(long id) {
        cli.json("queue", "tick");
        return cli.json("job", "show", String.valueOf(id), "--no-tick");
    }

    @Test
    void anHourForwardKillsNoRunningJobAndTheLimitHoldsOnTheBootClock() throws Exception {
        long id = running("600");
        assertNotNull(bootId(id), "the start is stamped on the boot clock");
        String anHourAgo = Times.iso(Instant.now().minusSeconds(3600));

        sql("UPDATE jobs SET started_at = ? WHERE id = ?", anHourAgo, id);
        JsonNode jumped = afterAPass(id);
        assertEquals("running", jumped.path("state").asText(), "an hour on the wall clock, seconds on the boot clock: "
                + jumped);

        // Eleven minutes on the boot clock (the wall clock back where it was): over the limit of 600 s.
        sql("UPDATE jobs SET started_at = ?, started_uptime_ms = started_uptime_ms - 660000 WHERE id = ?",
                Times.iso(Instant.now()), id);
        JsonNode over = afterAPass(id);
        assertEquals("timeout", over.path("state").asText(), over.toString());
        assertEquals("exceeded max runtime of 600s", over.path("last_error").asText(), over.toString());
    }

    @Test
    void aStartFromAnotherBootCountsOnTheWallClock() throws Exception {
        long id = running("600");
        sql("UPDATE jobs SET started_at = ?, started_boot_id = 'a-boot-before-the-last-reboot' WHERE id = ?",
                Times.iso(Instant.now().minusSeconds(3600)), id);
        JsonNode job = afterAPass(id);
        assertEquals("timeout", job.path("state").asText(), job.toString());
    }
}
