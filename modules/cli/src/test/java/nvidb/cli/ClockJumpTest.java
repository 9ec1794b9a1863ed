package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import nvidb.core.api.Times;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue host's clock jumps. What the queue stored was stamped by the clock before the jump,
 * and the commands run by the clock after it: an hour back leaves the last pass and a lease an
 * hour in the future. Neither may stall the queue (reads pass again at once, a lease is taken
 * over), and neither may free what a small difference should not (a pass within
 * tick_min_interval, a lease still running).
 */
class ClockJumpTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  tick_min_interval: 30\n  lock_ttl: 60\n");
        cli.json("job", "submit", "--gpus", "0", "--", "true"); // its pass sets last_tick_at
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

    private Instant lastPass() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             ResultSet rs = c.createStatement().executeQuery("SELECT value FROM meta WHERE key = 'last_tick_at'")) {
            return Times.parse(rs.getString(1));
        }
    }

    @Test
    void readsPassAgainAtOnceAfterTheClockWentBackAnHour() throws Exception {
        Instant now = Instant.now();
        sql("UPDATE meta SET value = ? WHERE key = 'last_tick_at'", Times.iso(now.plus(1, ChronoUnit.HOURS)));
        cli.json("job", "ls");
        Instant pass = lastPass();
        assertTrue(pass.isBefore(now.plusSeconds(60)), "a pass was made (last_tick_at " + pass + ")");
    }

    @Test
    void aPassWithinTheIntervalStillHoldsOffTheNext() throws Exception {
        Instant recent = Instant.now().minusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
        sql("UPDATE meta SET value = ? WHERE key = 'last_tick_at'", Times.iso(recent));
        cli.json("job", "ls");
        assertEquals(recent, lastPass(), "rate-limited as before");
    }

    @Test
    void aLeaseFromBeforeTheClockWentBackIsTakenOverAndARunningOneIsNot() throws Exception {
        Instant now = Instant.now();
        String other = "other-host:4242:x";
        String upsert = "INSERT INTO locks (name, owner, acquired_at, expires_at) VALUES ('scheduler', ?, ?, ?) "
                + "ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, acquired_at = excluded.acquired_at, "
                + "expires_at = excluded.expires_at";
        // Taken by a host that then died, a minute before the clock here went back an hour.
        sql(upsert, other, Times.iso(now.plusSeconds(3540)), Times.iso(now.plusSeconds(3600)));
        Cli.Result r = cli.run("queue", "tick", "--json");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.json().path("ran").asBoolean(), r.toString());
        // Taken a second ago and running for another minute: busy, as before.
        sql(upsert, other, Times.iso(now.minusSeconds(1)), Times.iso(now.plusSeconds(59)));
        Cli.Result busy = cli.run("queue", "tick", "--json");
        assertEquals("locked", busy.json().path("skipped").asText(), busy.toString());
        assertEquals(other, busy.json().path("lock_owner").asText(), busy.toString());
    }
}
