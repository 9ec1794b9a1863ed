package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C on a client reaches the command on the queue host: a terminal's Ctrl-C (SIGINT to the
 * client's whole process group, ssh included) stops the host's wait, which still answers as an
 * interrupted local wait would, and nothing keeps running there.
 */
class ForwardingInterruptTest extends QueueHostTest {
    @Test
    void ctrlCDuringAWaitStopsTheWaitOnTheHost() throws Exception {
        long id = q.host.json("job", "submit", "--gpus", "0", "--", "sleep 60").path("job").path("id").asLong();
        Process wait = q.startClient("job", "wait", String.valueOf(id), "--json");
        QueueHostFixture.awaitForwarded(wait);
        QueueHostFixture.terminalCtrlC(wait);
        Cli.Result r = Cli.finish(wait, 60);
        assertEquals(130, r.exit(), r.toString());
        JsonNode doc = r.json();
        assertTrue(doc.path("interrupted").asBoolean(), r.toString());
        assertEquals(id, doc.path("jobs").path(0).path("id").asLong(), r.toString());
        assertEquals("", r.err());
        QueueHostFixture.awaitNoForwardedCommand();
        assertEquals("running", q.host.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText(),
                "nothing was cancelled");
        q.host.json("job", "cancel", String.valueOf(id));
    }

    @Test
    void ctrlCOnSubmitWaitStillPrintsTheJobItCreated() throws Exception {
        Process submit = q.startClient("job", "submit", "--gpus", "0", "--wait", "--json", "--", "sleep 60");
        QueueHostFixture.awaitForwarded(submit);
        Instant deadline = Instant.now().plusSeconds(60);
        while (q.host.json("job", "ls", "--no-tick").path("jobs").isEmpty()) {
            assertTrue(Instant.now().isBefore(deadline), "no job was submitted on the host");
            Thread.sleep(100);
        }
        Thread.sleep(1000); // let it reach its wait
        QueueHostFixture.terminalCtrlC(submit);
        Cli.Result r = Cli.finish(submit, 60);
        assertEquals(130, r.exit(), r.toString());
        JsonNode doc = r.json();
        assertTrue(doc.path("interrupted").asBoolean(), r.toString());
        assertEquals("running", doc.path("job").path("state").asText(), r.toString());
        QueueHostFixture.awaitNoForwardedCommand();
        q.host.json("job", "cancel", doc.path("job").path("id").asText());
    }

    @Test
    void sigtermOnTheClientTerminatesTheHostCommand() throws Exception {
        long id = q.host.json("job", "submit", "--gpus", "0", "--", "sleep 60").path("job").path("id").asLong();
        Process wait = q.startClient("job", "wait", String.valueOf(id));
        QueueHostFixture.awaitForwarded(wait);
        assertEquals(0, new ProcessBuilder("kill", "-TERM", String.valueOf(wait.pid())).start().waitFor());
        Cli.Result r = Cli.finish(wait, 60);
        assertEquals(143, r.exit(), r.toString());
        assertTrue(r.err().contains("waiting interrupted; nothing was cancelled: job(s) " + id + " keep going"), r.err());
        QueueHostFixture.awaitNoForwardedCommand();
        q.host.json("job", "cancel", String.valueOf(id));
    }

    @Test
    void ctrlCBeforeTheHostAnswersCutsTheSession() throws Exception {
        Path started = tmp.resolve("host-started");
        Path slow = QueueHostFixture.script(tmp.resolve("host/bin/slow-nvidb"),
                "touch '" + started + "'\nsleep 30\nexec '" + q.hostNvidb + "' \"$@\"\n");
        q.remote(slow.toString(), "off");
        Process ls = q.startClient("job", "ls", "--json");
        Instant deadline = Instant.now().plusSeconds(60);
        while (!Files.exists(started)) {
            assertTrue(ls.isAlive() && Instant.now().isBefore(deadline), "the host never started");
            Thread.sleep(50);
        }
        QueueHostFixture.terminalCtrlC(ls);
        Cli.Result r = Cli.finish(ls, 20);
        assertEquals(130, r.exit(), r.toString());
        assertEquals("interrupted", r.json().path("code").asText(), r.toString());
        assertTrue(r.json().path("error").asText().startsWith("interrupted while connecting to the queue host"), r.toString());
    }
}
