package nvidb.plugins.transport.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import nvidb.spi.PluginKind;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;
import nvidb.spi.transport.TransportFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import nvidb.testkit.Pids;

class LocalTransportTest {

    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Transport transport;
    /** Processes a test left running on purpose (detached jobs), killed after it. */
    private final List<Long> leftRunning = new ArrayList<>();

    @BeforeEach
    void open() {
        TransportFactory factory = ServiceLoader.load(TransportFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("local"))
                .findFirst().orElseThrow();
        transport = factory.open(new NodeAddress("here", "localhost", 0, null, Map.of()));
    }

    @AfterEach
    void cleanUp() {
        transport.close();
        for (long pid : leftRunning) {
            ProcessHandle.of(pid).ifPresent(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            });
        }
    }

    @Test
    void isRegisteredAsTheLocalTransport() {
        List<TransportFactory> all = ServiceLoader.load(TransportFactory.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertEquals(1, all.size());
        assertEquals("local", all.getFirst().name());
        assertEquals(PluginKind.TRANSPORT, all.getFirst().kind());
    }

    @Test
    void exitCodeAndStdoutComeBack() throws TransportException {
        ExecResult result = transport.run("echo hello\nprintf 'second line'\nexit 3\n", TEN_SECONDS, true);
        assertEquals(3, result.exitCode());
        assertEquals("hello\nsecond line", result.stdout());
        assertEquals("", result.stderr());
        assertFalse(result.ok());
    }

    @Test
    void successfulScriptIsOk() throws TransportException {
        ExecResult result = transport.run("true", TEN_SECONDS, false);
        assertTrue(result.ok());
        assertEquals("", result.stdout());
    }

    @Test
    void stderrIsCapturedApartFromStdout() throws TransportException {
        ExecResult result = transport.run("echo out\necho 'it broke' >&2\nexit 1\n", TEN_SECONDS, true);
        assertEquals(1, result.exitCode());
        assertEquals("out\n", result.stdout());
        assertEquals("it broke\n", result.stderr());
    }

    @Test
    void hostileTextReachesTheScriptVerbatimAndIsNotEvaluatedByTheTransport() throws TransportException {
        Path marker = dir.resolve("pwned");
        String hostile = "it's \"quoted\" $(touch " + marker + ") `touch " + marker + "` $HOME \\n ; | & > <\n"
                + "second line with 'single' and \"double\"\n"
                + "ünïcödé ✓";
        // A quoted here-document: the script itself chooses to print the text without expanding it.
        String script = "cat <<'NVIDB_END'\n" + hostile + "\nNVIDB_END\n";
        ExecResult result = transport.run(script, TEN_SECONDS, true);
        assertEquals(0, result.exitCode(), result.stderr());
        assertEquals(hostile + "\n", result.stdout());
        assertFalse(Files.exists(marker), "nothing in the text may have been run");
    }

    @Test
    void theScriptDecidesWhatIsExpanded() throws TransportException {
        ExecResult result = transport.run("x='a b'\nprintf '[%s]' \"$(echo \"$x\")\" `echo c`\n", TEN_SECONDS, true);
        assertEquals("[a b][c]", result.stdout());
    }

    @Test
    void largeOutputOnBothStreamsDoesNotDeadlock() throws TransportException {
        // Far more than a pipe buffer on each stream, interleaved, so a reader of one stream only
        // would block sh on the other.
        String script = "i=0\nwhile [ $i -lt 2000 ]; do\n"
                + "  echo \"out line $i padded to make it long enough to fill pipes quickly..........\"\n"
                + "  echo \"err line $i padded to make it long enough to fill pipes quickly..........\" >&2\n"
                + "  i=$((i+1))\ndone\n";
        ExecResult result = transport.run(script, Duration.ofSeconds(30), true);
        assertEquals(0, result.exitCode());
        assertEquals(2000, result.stdout().lines().count());
        assertEquals(2000, result.stderr().lines().count());
        assertTrue(result.stdout().endsWith("out line 1999 padded to make it long enough to fill pipes quickly..........\n"));
    }

    @Test
    void scriptLargerThanAPipeBufferIsFedWhole() throws TransportException {
        StringBuilder script = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            script.append(": filler line ").append(i).append('\n');
        }
        script.append("echo reached the end\n");
        ExecResult result = transport.run(script.toString(), Duration.ofSeconds(30), true);
        assertEquals("reached the end\n", result.stdout());
    }

    @Test
    void environmentIsInherited() throws TransportException {
        ExecResult result = transport.run("printf '%s' \"$PATH\"", TEN_SECONDS, true);
        assertEquals(System.getenv("PATH"), result.stdout());
    }

    @Test
    void scriptStartsInTheHomeDirectoryLikeAnSshSession() throws TransportException, IOException {
        ExecResult result = transport.run("pwd -P", TEN_SECONDS, true);
        assertEquals(Path.of(System.getenv("HOME")).toRealPath().toString() + "\n", result.stdout());
    }

    @Test
    void timeoutKillsTheWholeTreeAndSaysSo() throws Exception {
        Path pidFile = dir.resolve("sleep.pid");
        String script = "sleep 30 &\necho $! > '" + pidFile + "'\nwait\n";
        long start = System.nanoTime();
        TransportException e = assertThrows(TransportException.class,
                () -> transport.run(script, Duration.ofSeconds(1), true));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertTrue(e.getMessage().contains("did not answer within 1s"), e.getMessage());
        assertTrue(e.getMessage().contains("here"), e.getMessage());

        long sleepPid = Long.parseLong(Files.readString(pidFile).trim());
        leftRunning.add(sleepPid);
        assertTrue(gone(sleepPid), "the script's sleep must have been killed with it");
    }

    @Test
    void timeoutOfAForegroundSleepThrowsPromptly() {
        long start = System.nanoTime();
        assertThrows(TransportException.class, () -> transport.run("sleep 30\n", Duration.ofMillis(500), true));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofMillis(1500)) < 0, "took " + took);
    }

    @Test
    void subSecondTimeoutIsReportedInSeconds() {
        TransportException e = assertThrows(TransportException.class,
                () -> transport.run("sleep 30\n", Duration.ofMillis(300), true));
        assertTrue(e.getMessage().endsWith("within 0.3s"), e.getMessage());
    }

    @Test
    void detachedJobWithRedirectedOutputDoesNotHoldTheAnswer() throws TransportException {
        String script = "setsid sh -c 'sleep 5' >/dev/null 2>&1 &\necho $!\necho started\n";
        long start = System.nanoTime();
        ExecResult result = transport.run(script, TEN_SECONDS, true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long pid = Long.parseLong(result.stdout().lines().findFirst().orElseThrow().trim());
        leftRunning.add(pid);

        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertEquals(0, result.exitCode());
        assertTrue(result.stdout().endsWith("started\n"), result.stdout());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "the detached job must outlive the script");
    }

    @Test
    void backgroundChildThatKeepsThePipesOpenDoesNotHoldTheAnswer() throws TransportException {
        // The child inherits stdout and stderr and keeps both open for 5 s after sh exits.
        String script = "sleep 5 &\necho $!\necho done\necho 'also on stderr' >&2\n";
        long start = System.nanoTime();
        ExecResult result = transport.run(script, TEN_SECONDS, true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long pid = Long.parseLong(result.stdout().lines().findFirst().orElseThrow().trim());
        leftRunning.add(pid);

        assertTrue(took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
        assertTrue(result.stdout().endsWith("done\n"), result.stdout());
        assertEquals("also on stderr\n", result.stderr());
    }

    @Test
    void earlyExitWithUnreadScriptStillAnswers() throws TransportException {
        StringBuilder script = new StringBuilder("echo bye\nexit 7\n");
        for (int i = 0; i < 20_000; i++) {
            script.append("echo never ").append(i).append('\n');
        }
        ExecResult result = transport.run(script.toString(), TEN_SECONDS, true);
        assertEquals(7, result.exitCode());
        assertEquals("bye\n", result.stdout());
    }

    @Test
    void runAfterCloseIsRefused() {
        transport.close();
        assertThrows(IllegalStateException.class, () -> transport.run("true", TEN_SECONDS, true));
    }

    @Test
    void nonPositiveTimeoutIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> transport.run("true", Duration.ZERO, true));
    }

    private static boolean gone(long pid) throws InterruptedException {
        return Pids.goneWithin(pid, Duration.ofSeconds(5));
    }
}
