package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job is changed only by the account that submitted it and by {@code queue.admins}; reading is
 * everyone's. The other account here is a job whose recorded {@code user} is {@code alice} (written
 * into the real database, as alice's own submit would have): this process's account is not alice.
 */
class OwnershipTest {
    @TempDir
    Path tmp;
    Cli cli;
    long mine;
    long hers;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        mine = submit("mine");
        hers = submit("hers");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement ps = c.prepareStatement("UPDATE jobs SET user = 'alice' WHERE id = ?")) {
            ps.setLong(1, hers);
            assertEquals(1, ps.executeUpdate());
        }
    }

    private long submit(String name) {
        return cli.json("job", "submit", "--no-tick", "--gpus", "0", "--name", name, "--", "true").path("job").path("id")
                .asLong();
    }

    @Test
    void anotherAccountsJobIsRefusedWithForbiddenAndNamesItsOwner() {
        String h = String.valueOf(hers);
        for (String[] change : new String[][] {{"job", "cancel", h}, {"job", "priority", h, "5"},
                {"job", "priority", h, "--up", "1"}, {"job", "note", h, "mine now"}, {"job", "result", h, "--set", "{}"},
                {"job", "edit", h, "--add-after", String.valueOf(mine)}, {"job", "release", h}}) {
            Cli.Result r = cli.run(append(change, "--json"));
            assertEquals(77, r.exit(), String.join(" ", change) + ": " + r);
            JsonNode doc = r.json();
            assertEquals("forbidden", doc.path("code").asText(), r.toString());
            assertTrue(doc.path("error").asText().contains("is alice's: only alice or an account of queue.admins may"),
                    r.toString());
        }
        JsonNode shown = cli.json("job", "show", h, "--no-tick");
        assertEquals("pending", shown.path("state").asText(), "a refused command changes nothing");
        assertEquals(0, shown.path("priority").asInt());
        assertTrue(shown.path("notes").isNull());
        assertEquals("alice", shown.path("user").asText(), "everyone may read everything");
    }

    @Test
    void severalIdsActOnTheCallersOwnAndReportTheOthers() {
        Cli.Result r = cli.run("job", "cancel", mine + "," + hers, "--json");
        assertEquals(77, r.exit(), r.toString());
        JsonNode doc = r.json();
        assertEquals(true, doc.path("results").path(0).path("ok").asBoolean());
        assertEquals("forbidden", doc.path("results").path(1).path("code").asText());
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(mine), "--no-tick").path("state").asText());
        assertEquals("pending", cli.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());
        Cli.Result unknown = cli.run("job", "cancel", hers + ",999", "--json");
        assertEquals(3, unknown.exit(), "an unknown id is the most serious: " + unknown);
    }

    @Test
    void anAdminMayActOnAnyJob() throws Exception {
        String me = cli.json("job", "show", String.valueOf(mine), "--no-tick").path("user").asText();
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  admins: [" + me + "]\n");
        assertEquals(0, cli.run("job", "note", String.valueOf(hers), "checked by the admin").exit());
        assertEquals(0, cli.run("job", "cancel", String.valueOf(hers)).exit());
        assertEquals("cancelled", cli.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());
        cli.write(".nvidb/queue.yml", "queue:\n  admins: [\"two words\"]\n");
        Cli.Result bad = cli.run("job", "ls");
        assertEquals(64, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("admins") && bad.err().contains("OS account names"), bad.toString());
    }

    private static String[] append(String[] a, String extra) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = extra;
        return out;
    }
}
