package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nvidb queue} in a real terminal: tmux runs it over a cluster of two local nodes with fake
 * GPUs, {@code send-keys} types, {@code capture-pane} reads the screen, and the queue file says
 * whether the keys did what the screen claims. The tmux server is a private one (its own socket).
 */
class TuiTerminalTest {
    private static final int REFRESH_S = 2;
    /** A foreground colour in what {@code capture-pane -e} prints. */
    private static final java.util.regex.Pattern COLOUR = java.util.regex.Pattern.compile("\u001b\\[[0-9;]*3[0-7]m");

    @TempDir
    Path tmp;
    Cli cli;
    Path socket;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(HostTools.installed("tmux"), HostTools.missing("tmux", "tmux"));
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "tester@tui");
        FakeNvidiaSmi alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        alpha.foreignProcess(424242, 0, 12000, "someone-elses-training");
        FakeNvidiaSmi beta = FakeNvidiaSmi.install("beta", tmp.resolve("beta/bin"), tmp.resolve("beta/state"))
                .gpu(0, "NVIDIA A100 80GB PCIe", 81920);
        StringBuilder y = new StringBuilder("queue:\n  tick_min_interval: 0.5\n  lane_spool_root: ")
                .append(tmp.resolve("spool")).append("\nservers:\n");
        y.append(node("alpha", alpha, ""));
        y.append(node("beta", beta, "    probe: wsl\n"));
        cli.write(".nvidb/queue.yml", y.toString());
        socket = tmp.resolve("tmux.sock");
    }

    private String node(String name, FakeNvidiaSmi fake, String extra) {
        return "  - nickname: " + name + "\n    transport: local\n    nvidia_smi: " + fake.command() + "\n    job_root: "
                + tmp.resolve(name + "-jobs") + "\n" + extra;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (socket == null) {
            return; // skipped: nothing was started
        }
        tmux("kill-server");
        for (JsonNode j : cli.json("job", "ls", "--active", "--no-tick").path("jobs")) {
            cli.run("job", "cancel", j.path("id").asText());
        }
        cli.run("queue", "tick");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void showsTheClusterFollowsTheQueueAndSteersItWithKeys() throws Exception {
        long train = submit("--name", "train", "--vram", "8G", "--node", "alpha", "--", "sleep 300");
        long first = submit("--name", "p-one", "--after", String.valueOf(train), "--", "true");
        long second = submit("--name", "p-two", "--after", String.valueOf(train), "--", "true");

        Path rc = tmp.resolve("rc");
        tmux("new-session", "-d", "-s", "tui", "-x", "150", "-y", "45", "sh", "-c", tuiScript(rc));

        // Node names, bars with the foreign process's memory, blind attribution, the jobs.
        String screen = await("the first screen", s -> s.contains("p-two") && s.contains("beta") && s.contains("other 11.7G"));
        assertTrue(screen.contains(" alpha  [up]"), screen);
        // GPU0: half held by a process the queue did not start; GPU1 (spread's pick): the job's reservation.
        assertTrue(screen.matches("(?s).*GPU0 RTX 3090 Ti +\\[#{20}\\.{20}\\] other 11.7G  queue 0M  free 11.8G/24.0G.*"), screen);
        assertTrue(screen.matches("(?s).*GPU1 RTX 3090 Ti +\\[={13}\\.{27}\\] other 0M  queue 8.0G  free 15.5G/24.0G.*"), screen);
        assertTrue(screen.contains("attribution: blind"), screen);
        assertTrue(COLOUR.matcher(tmux("capture-pane", "-e", "-p", "-t", "tui")).find(), "a colour terminal gets colour");
        List<String> rows = jobRows(screen);
        assertEquals(List.of("train", "p-one", "p-two"), rows.stream().map(TuiTerminalTest::name).toList(), screen);
        assertTrue(rows.get(0).startsWith("> ") && rows.get(0).contains("running") && rows.get(0).contains("alpha:1"),
                rows.get(0));

        // A job submitted by another process shows within the refresh interval (plus the time to draw it).
        long outsider = submit("--name", "outsider", "--after", String.valueOf(train), "--", "true");
        Instant submitted = Instant.now();
        await("the outsider", s -> s.contains("outsider"));
        long took = Duration.between(submitted, Instant.now()).toMillis();
        assertTrue(took <= REFRESH_S * 1000L + 1500, "the outside submit took " + took + " ms to show");

        // K moves the selected pending job (p-two) one place earlier: p-one is lowered below it.
        keys("j", "j");
        await("p-two selected", s -> jobRows(s).stream().anyMatch(r -> r.startsWith("> ") && r.contains("p-two")));
        keys("K");
        screen = await("p-two ahead of p-one", s -> names(s).indexOf("p-two") >= 0 && names(s).indexOf("p-two") < names(s).indexOf("p-one"));
        assertTrue(screen.contains("job " + second + " is now #1 in the dispatch order"), screen);
        assertEquals(-1, cli.json("job", "show", String.valueOf(first), "--no-tick").path("priority").asInt());
        assertEquals(0, cli.json("job", "show", String.valueOf(second), "--no-tick").path("priority").asInt());

        // c twice cancels the selected job; the first c only asks.
        keys("g", "c");
        await("the cancel question", s -> s.contains("press c again within 5 s to cancel job " + train + " (train)"));
        assertEquals("running", state(train));
        keys("c");
        await("the cancel", s -> s.contains("job " + train + " cancelled"));
        LocalJobsTest.waitUntil(() -> state(train).equals("cancelled"), 10);

        // A resize redraws at the new size: the status line moves to the new last row.
        tmux("resize-window", "-t", "tui", "-x", "100", "-y", "30");
        screen = await("the redraw at 100x30", s -> s.lines().count() <= 30 && s.lines().reduce((a, b) -> b).orElse("")
                .contains("q quit") && s.contains("alpha") && s.contains("outsider"));
        assertTrue(screen.lines().allMatch(l -> l.length() <= 100), screen);
        assertTrue(jobRows(screen).stream().anyMatch(r -> r.contains("outsider")), screen);

        // The mouse: a click on the NAME heading sorts by name (the terminal reports it as SGR).
        List<String> lines = screen.lines().toList();
        int row = indexOf(lines, "ID     STATE");
        int column = lines.get(row).indexOf("NAME");
        tmux("send-keys", "-t", "tui", "-l", "\u001b[<0;" + (column + 1) + ";" + (row + 1) + "M");
        screen = await("the table sorted by name", s -> s.contains("NAMEv"));
        assertEquals(List.of("outsider", "p-one", "p-two"), names(screen).stream().filter(n -> !n.equals("train")).toList(),
                screen);

        // q quits with 0 and leaves the terminal as it found it.
        keys("q");
        LocalJobsTest.waitUntil(() -> Files.exists(rc), 15);
        assertEquals("0", Files.readString(rc).strip());
        assertRestored();
        assertEquals("pending", state(outsider));
    }

    /** The shell line tmux runs: the TUI between two readings of the terminal's settings, its exit code to {@code rc}. */
    private String tuiScript(Path rc) {
        return tuiScript(rc, "");
    }

    /** {@code env} goes before the command: {@code NO_COLOR=1 } and such. */
    private String tuiScript(Path rc, String env) {
        return "stty -g > " + tmp.resolve("stty.before") + "; " + env
                + String.join(" ", cli.javaCommand().stream().map(Cli::q).toList()) + " queue --refresh " + REFRESH_S
                + "; echo $? > " + rc + ".tmp; mv " + rc + ".tmp " + rc + "; stty -g > " + tmp.resolve("stty.after")
                + "; echo TUI-ENDED; sleep 600";
    }

    private void assertRestored() throws Exception {
        // The script writes rc, then reads the settings again, then says TUI-ENDED: wait for the
        // last, or the second reading may not be there yet (failed once in the whole suite).
        await("the script's end", s -> s.contains("TUI-ENDED"));
        assertEquals(Files.readString(tmp.resolve("stty.before")), Files.readString(tmp.resolve("stty.after")),
                "the terminal's settings are restored");
        assertEquals("0", tmux("display-message", "-p", "-t", "tui", "#{alternate_on}").strip(), "left the alternate screen");
        assertEquals("1", tmux("display-message", "-p", "-t", "tui", "#{cursor_flag}").strip(), "the cursor shows again");
        assertEquals("0", tmux("display-message", "-p", "-t", "tui", "#{mouse_any_flag}").strip(), "mouse reports are off");
        assertTrue(capture().contains("TUI-ENDED"), capture());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void ctrlCQuitsWith130AndRestoresTheTerminalToo() throws Exception {
        Path rc = tmp.resolve("rc");
        tmux("new-session", "-d", "-s", "tui", "-x", "120", "-y", "30", "sh", "-c", tuiScript(rc, "NO_COLOR=1 "));
        await("the first screen", s -> s.contains("beta") && s.contains("q quit"));
        String styled = tmux("capture-pane", "-e", "-p", "-t", "tui");
        assertTrue(styled.contains("\u001b[1m"), "bold stays without colour: " + styled);
        assertFalse(COLOUR.matcher(styled).find(), "NO_COLOR: no colour at all: " + styled);
        tmux("send-keys", "-t", "tui", "C-c");
        LocalJobsTest.waitUntil(() -> Files.exists(rc), 15);
        assertEquals("130", Files.readString(rc).strip());
        assertRestored();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void sigtermFromOutsideEndsItWith143AndRestoresTheTerminal() throws Exception {
        Path rc = tmp.resolve("rc");
        tmux("new-session", "-d", "-s", "tui", "-x", "120", "-y", "30", "sh", "-c", tuiScript(rc));
        await("the first screen", s -> s.contains("beta") && s.contains("q quit"));
        long shell = Long.parseLong(tmux("display-message", "-p", "-t", "tui", "#{pane_pid}").strip());
        ProcessHandle java = ProcessHandle.of(shell).orElseThrow().children().findFirst().orElseThrow();
        new ProcessBuilder("kill", "-TERM", String.valueOf(java.pid())).start().waitFor();
        LocalJobsTest.waitUntil(() -> Files.exists(rc), 15);
        assertEquals("143", Files.readString(rc).strip());
        assertRestored();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNodeThatDoesNotAnswerSlowsTheNumbersNeverTheKeys() throws Exception {
        // gamma's nvidia-smi hangs: every pass waits for its probe to time out.
        Path hang = tmp.resolve("gamma/bin/nvidia-smi");
        Files.createDirectories(hang.getParent());
        Files.writeString(hang, "#!/bin/sh\nsleep 120\n");
        hang.toFile().setExecutable(true);
        cli.write(".nvidb/queue.yml", Files.readString(cli.nvidbHome().resolve("queue.yml")).replace("queue:\n",
                "queue:\n  probe_timeout: 20\n") + "  - nickname: gamma\n    transport: local\n    nvidia_smi: " + hang
                + "\n    job_root: " + tmp.resolve("gamma-jobs") + "\n");
        long a = submit("--no-tick", "--name", "slow-a", "--", "true");
        long b = submit("--no-tick", "--name", "slow-b", "--", "true");
        Path rc = tmp.resolve("rc");
        tmux("new-session", "-d", "-s", "tui", "-x", "140", "-y", "30", "sh", "-c", tuiScript(rc));
        await("the jobs while the first pass hangs", s -> s.contains("(passing...)") && s.contains("slow-b"));
        assertTrue(jobRows(capture()).getFirst().startsWith("> " + a), capture());

        Instant pressed = Instant.now();
        keys("j");
        String screen = await("the selection moved", s -> jobRows(s).stream().anyMatch(r -> r.startsWith("> " + b)));
        assertTrue(screen.contains("(passing...)"), "the pass is still waiting for gamma: " + screen);
        assertTrue(Duration.between(pressed, Instant.now()).toMillis() < 3000, "a key waited for the node");

        long c = submit("--no-tick", "--name", "slow-c", "--", "true");
        screen = await("a job submitted meanwhile", s -> s.contains("slow-c"));
        assertTrue(screen.contains("(passing...)"), "the view was re-read while the pass still waits: " + screen);
        keys("q");
        LocalJobsTest.waitUntil(() -> Files.exists(rc), 30);
        assertEquals("0", Files.readString(rc).strip());
        assertEquals("pending", state(c));
    }

    @Test
    void withoutATerminalWithJsonOrTooShortARefreshItSaysWhatWouldBeRight() {
        Cli.Result bare = cli.run("queue");
        assertEquals(64, bare.exit(), bare.toString());
        assertTrue(bare.err().contains("shows the queue on a terminal") && bare.err().contains("nvidb queue status"),
                bare.err());
        Cli.Result json = cli.run("queue", "tui", "--json");
        assertEquals(64, json.exit(), json.toString());
        assertEquals("usage", json.json().path("code").asText());
        assertTrue(json.json().path("error").asText().contains("use nvidb queue status --json"), json.out());
        Cli.Result fast = cli.run("queue", "tui", "--refresh", "0.5");
        assertEquals(64, fast.exit(), fast.toString());
        assertTrue(fast.err().contains("--refresh takes a number of seconds, at least 1.0 (got 0.5)"), fast.err());
        Cli.Result help = cli.run("queue", "--help");
        assertEquals(0, help.exit(), help.toString());
        assertTrue(help.out().contains("alone, the queue on this terminal") && help.out().contains("tui"), help.out());
    }

    private long submit(String... args) {
        List<String> all = new ArrayList<>(List.of("job", "submit"));
        all.addAll(List.of(args));
        return cli.json(all.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private String state(long id) {
        return cli.json("job", "show", String.valueOf(id), "--no-tick").path("state").asText();
    }

    /** The job table's rows as shown: {@code > 12  running ...} for the selected one, two blanks before the others. */
    private static List<String> jobRows(String screen) {
        return screen.lines().filter(l -> l.matches("^[> ] \\d+ +(running|pending|held|cancelled|completed|failed).*")).toList();
    }

    private static List<String> names(String screen) {
        return jobRows(screen).stream().map(TuiTerminalTest::name).toList();
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + text + ":\n" + String.join("\n", lines));
    }

    private static String name(String row) {
        return row.substring(2).trim().split(" +")[3];
    }

    private void keys(String... keys) throws Exception {
        for (String k : keys) {
            tmux("send-keys", "-t", "tui", k);
            Thread.sleep(150);
        }
    }

    private String capture() throws Exception {
        return tmux("capture-pane", "-p", "-t", "tui");
    }

    /** The screen once {@code ok} holds for it; fails with the last screen after 30 s. */
    private String await(String what, Predicate<String> ok) throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        String screen = capture();
        while (!ok.test(screen)) {
            if (Instant.now().isAfter(deadline)) {
                fail("no " + what + " on the screen within 30 s:\n" + screen);
            }
            Thread.sleep(100);
            screen = capture();
        }
        return screen;
    }

    private String tmux(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("tmux", "-S", socket.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(cliEnv());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return out;
    }

    /** The environment the TUI runs with: the test's nvidb home, and a terminal type tmux describes. */
    private java.util.Map<String, String> cliEnv() {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("HOME", cli.home().toString());
        env.put("NVIDB_HOME", cli.nvidbHome().toString());
        env.put("NVIDB_SUBMITTER", "tester@tui");
        env.put("USER", "tester");
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("TERM", "xterm-256color");
        return env;
    }
}
