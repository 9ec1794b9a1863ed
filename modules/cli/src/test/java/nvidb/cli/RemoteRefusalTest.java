package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client configured with remote: never quietly runs its jobs on its own machine: when its
 * queue host cannot be reached, every queue command ends with 69 and touches nothing here, and
 * --local is the one explicit way to use this machine's queue. (Forwarding to a host that
 * answers: ForwardingTest.)
 */
class RemoteRefusalTest {
    @TempDir
    Path tmp;
    Cli cli;
    String queueYml;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        // Nothing listens on port 1 of this machine: ssh is refused at once.
        cli.write(".nvidb/queue.yml", "# a client\nremote:\n  host: 127.0.0.1\n  port: 1\n  user: alice\n"
                + "  keeper: off\n  ssh_options: [BatchMode=yes]\n");
        queueYml = cli.nvidbHome().resolve("queue.yml").toString();
    }

    @Test
    void everyQueueCommandRefusesAndTouchesNothing() {
        Cli.Result submit = cli.run("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(69, submit.exit(), submit.toString());
        assertEquals("", submit.out());
        assertTrue(submit.err().startsWith("error: could not reach or log in to the queue host 127.0.0.1: "), submit.err());
        assertTrue(submit.err().endsWith("check that ssh -p 1 alice@127.0.0.1 works from this machine without a prompt,"
                + " or fix remote: in " + queueYml + ", line 2 (host, port, username, ssh_options)\n"), submit.err());
        assertFalse(Files.exists(cli.database()), "no local queue was created");

        for (String[] args : new String[][] {{"job", "ls"}, {"queue", "status"}, {"queue", "tick"}, {"job", "show", "1"},
                {"queue", "nodes"}, {"job", "cancel", "1"}}) {
            Cli.Result r = cli.run(args);
            assertEquals(69, r.exit(), String.join(" ", args) + ": " + r);
        }
        Cli.Result json = cli.run("job", "ls", "--json");
        assertEquals(69, json.exit(), json.toString());
        JsonNode doc = json.json();
        assertEquals("unavailable", doc.path("code").asText());
        assertFalse(doc.path("ok").asBoolean(true));
        assertTrue(doc.path("error").asText().contains("127.0.0.1"), doc.toString());
        assertFalse(Files.exists(cli.database()));
    }

    @Test
    void localUsesThisMachinesQueueOnPurpose() {
        JsonNode submitted = cli.json("--local", "job", "submit", "--gpus", "0", "--no-tick", "--", "true");
        long id = submitted.path("job").path("id").asLong();
        assertTrue(Files.exists(cli.database()));
        JsonNode listed = cli.json("job", "ls", "--local");
        assertEquals(id, listed.path("jobs").path(0).path("id").asLong(), listed.toString());
        assertEquals(69, cli.run("job", "ls").exit(), "without --local it is the queue host's, unreachable");
    }

    @Test
    void commandsThatNeedNoQueueKeepWorking() {
        assertEquals(0, cli.run("plugins").exit());
        assertEquals(0, cli.run("--help").exit());
        assertEquals(0, cli.run("--version").exit());
        assertEquals(0, cli.run("job", "submit", "--help").exit());
    }

    @Test
    void anEmptyHostIsNoRemote() throws Exception {
        cli.write(".nvidb/queue.yml", "remote:\n  host: \"\"\n");
        assertEquals(0, cli.run("job", "ls").exit());
    }
}
