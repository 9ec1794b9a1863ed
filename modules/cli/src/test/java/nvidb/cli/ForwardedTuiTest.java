package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code nvidb queue} on a client's terminal (tmux) runs the TUI on a terminal of its own on the
 * queue host: the host's queue on the screen, the keys reaching it, its exit code coming back.
 */
class ForwardedTuiTest extends QueueHostTest {
    private boolean tmuxInstalled;

    @BeforeEach
    void needsTmux() {
        tmuxInstalled = HostTools.installed("tmux");
        assumeTrue(tmuxInstalled, HostTools.missing("tmux", "tmux"));
    }

    @AfterEach
    void stopTmux() throws Exception {
        if (q != null && tmuxInstalled) {
            tmux("kill-server");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theTuiShowsTheHostsQueueAndTakesItsKeys() throws Exception {
        // A job that stays active: the TUI's own passes start it, and a finished job would leave
        // the default (active) view before the second TUI looks.
        long id = q.host.json("job", "submit", "--gpus", "0", "--no-tick", "--name", "from-the-host", "--", "sleep 300")
                .path("job").path("id").asLong();
        try {
            assertEquals("0", runTui("q"), "q quits with 0");
            assertEquals("130", runTui("C-c"), "Ctrl-C is the TUI's key there, and its 130 comes back");
            assertFalse(Files.exists(q.client.database()), "the client has no queue of its own");
        } finally {
            q.host.run("job", "cancel", String.valueOf(id));
        }
    }

    /** Starts the forwarded TUI in tmux, waits for the host's job on the screen, types {@code key}: the exit code. */
    private String runTui(String key) throws Exception {
        Path rc = tmp.resolve("rc");
        Files.deleteIfExists(rc);
        String script = String.join(" ", q.client.javaCommand().stream().map(Cli::q).toList()) + " queue --refresh 2"
                + "; echo $? > " + rc + ".tmp; mv " + rc + ".tmp " + rc + "; echo TUI-ENDED; sleep 600";
        tmux("new-session", "-d", "-s", "tui", "-x", "140", "-y", "40", "sh", "-c", script);
        Instant deadline = Instant.now().plusSeconds(60);
        String screen = capture();
        while (!screen.contains("from-the-host")) {
            assertTrue(Instant.now().isBefore(deadline), "no host job on the screen within 60 s:\n" + screen);
            Thread.sleep(200);
            screen = capture();
        }
        assertTrue(screen.contains("q quit"), screen);
        tmux("send-keys", "-t", "tui", key);
        LocalJobsTest.waitUntil(() -> Files.exists(rc), 30);
        assertTrue(capture().contains("TUI-ENDED"), capture());
        tmux("kill-session", "-t", "tui");
        return Files.readString(rc).strip();
    }

    private String capture() throws Exception {
        return tmux("capture-pane", "-p", "-t", "tui");
    }

    private String tmux(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-S", tmp.resolve("tmux.sock").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = new HashMap<>(q.client.environment());
        env.put("TERM", "xterm-256color");
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.directory(q.clientWorkdir.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor(20, TimeUnit.SECONDS);
        return out;
    }
}
