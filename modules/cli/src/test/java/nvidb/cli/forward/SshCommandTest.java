package nvidb.cli.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import nvidb.core.api.RemoteSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ssh command line, and what the host's shell makes of it: run here by a real sh. */
class SshCommandTest {
    @TempDir
    Path tmp;

    private static RemoteSettings remote(String nvidb, String home, boolean keeper, Integer port, String user,
                                        List<String> options) {
        return new RemoteSettings("gpu-queue", port, user, nvidb, home, keeper, options, "queue.yml, line 1");
    }

    @Test
    void sshGetsNoTerminalNoEscapesAndTheUsersOptions() {
        SshCommand ssh = SshCommand.forCommand(remote("nvidb", null, false, 2222, "alice", List.of("ConnectTimeout=5", "A=b c")),
                List.of("job", "ls"));
        assertEquals(List.of("ssh", "-T", "-e", "none", "-p", "2222", "-l", "alice", "-o", "ConnectTimeout=5", "-o",
                "A=b c", "--", "gpu-queue", "exec env NVIDB_QUEUE_NO_REMOTE=1 nvidb --forward-protocol=1"), ssh.argv());
        assertEquals("ssh -p 2222 alice@gpu-queue", ssh.loginHint());
        List<String> tui = SshCommand.onTerminal(remote("nvidb", null, false, null, null, List.of()), List.of("queue"),
                "AAAA+/=").argv();
        assertEquals(List.of("ssh", "-tt", "-e", "none", "--", "gpu-queue",
                "exec env NVIDB_QUEUE_NO_REMOTE=1 nvidb --forward-protocol=1 --forward-header=AAAA+/="), tui,
                "the TUI gets a terminal there, and its header as an argument");
        assertEquals(List.of("ssh", "-T", "-e", "none", "--", "gpu-queue",
                "exec env NVIDB_QUEUE_NO_REMOTE=1 nvidb --forward-protocol=1"),
                SshCommand.forCommand(remote("nvidb", null, false, null, null, List.of()), List.of("job", "ls")).argv());
    }

    @Test
    void aSharedConnectionsOptionsComeAfterTheUsersSoTheirsWin() throws Exception {
        RemoteSettings remote = remote("nvidb", null, false, 2222, "alice", List.of("ConnectTimeout=5"));
        List<String> sharing = ConnectionSharing.options(remote, tmp.resolve("home"));
        Path socket = tmp.resolve("home/ssh").resolve(sharing.get(1).substring(sharing.get(1).lastIndexOf('/') + 1));
        assertEquals(List.of("ControlMaster=auto", "ControlPath=" + socket, "ControlPersist=600"), sharing);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
        List<String> argv = SshCommand.forCommand(remote, List.of("job", "ls")).sharing(sharing).argv();
        assertEquals(List.of("-o", "ConnectTimeout=5", "-o", "ControlMaster=auto"),
                argv.subList(argv.indexOf("ConnectTimeout=5") - 1, argv.indexOf("ControlMaster=auto") + 1),
                "the user's options first: OpenSSH keeps the first value of an option");
        for (String own : List.of("ControlMaster=no", "controlpath none", "ControlPath=~/.ssh/cm-%C")) {
            assertEquals(List.of(), ConnectionSharing.options(remote("nvidb", null, false, 2222, "alice", List.of(own)),
                    tmp.resolve("home")), own + ": the user manages sharing, none is added");
        }
        assertEquals(sharing, ConnectionSharing.options(remote, tmp.resolve("home")), "the same socket each time");
        assertTrue(ConnectionSharing.options(remote, tmp.resolve("x".repeat(80))).isEmpty(),
                "a socket path too long for a unix socket: no sharing rather than a failing ssh");
    }

    @Test
    void theHostsShellRunsTheNamedNvidbWithItsHomeAndNothingElse() throws Exception {
        Path canary = tmp.resolve("pwned");
        Path dir = Files.createDirectories(tmp.resolve("it's a $dir `touch " + canary + "`"));
        Path out = tmp.resolve("out");
        Path nvidb = fake(dir.resolve("nvidb"), "printf '%s\\n' \"$NVIDB_HOME\" \"$NVIDB_QUEUE_NO_REMOTE\" \"$@\" > '"
                + out + "'\n");
        String home = tmp.resolve("home; touch " + canary).toString();
        int exit = sh(SshCommand.forCommand(remote(nvidb.toString(), home, false, null, null, List.of()), List.of("job"))
                .commandLine(), tmp);
        assertEquals(0, exit);
        assertEquals(List.of(home, "1", "--forward-protocol=1"), Files.readAllLines(out));
        assertFalse(Files.exists(canary));
    }

    @Test
    void aTildeIsTheHostUsersHome() throws Exception {
        Path out = tmp.resolve("out");
        fake(Files.createDirectories(tmp.resolve("bin dir")).resolve("nvidb"),
                "printf '%s\\n' \"$NVIDB_HOME\" > '" + out + "'\n");
        String line = SshCommand.forCommand(remote("~/bin dir/nvidb", "~/.nvidb q", false, null, null, List.of()),
                List.of("job")).commandLine();
        assertEquals(0, sh(line, tmp));
        assertEquals(List.of(tmp + "/.nvidb q"), Files.readAllLines(out));
    }

    @Test
    void theKeeperPreludeRunsFirstAndWarnsOnceOnStderrWhenItFails() throws Exception {
        Path calls = tmp.resolve("calls");
        Path nvidb = fake(tmp.resolve("nvidb"), "echo \"$*\" >> '" + calls + "'\n"
                + "[ \"$1\" = queue ] && { echo noise; echo more noise >&2; exit 64; }\necho ran\n");
        RemoteSettings ensure = remote(nvidb.toString(), null, true, null, null, List.of());
        String line = SshCommand.forCommand(ensure, List.of("job", "ls")).commandLine();
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", line);
        pb.environment().put("HOME", tmp.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        assertEquals("ran\n", stdout, "the prelude writes nothing to stdout");
        assertTrue(stderr.startsWith("warning: the queue keeper on gpu-queue could not be started"), stderr);
        assertEquals(1, stderr.lines().count(), stderr);
        assertEquals(List.of("queue keeper ensure", "--forward-protocol=1"), Files.readAllLines(calls));
        assertFalse(SshCommand.forCommand(remote("nvidb", null, false, null, null, List.of()), List.of("job", "ls"))
                .commandLine().contains("keeper"), "keeper: off");
        assertFalse(SshCommand.forCommand(ensure, List.of("queue", "keeper", "stop")).commandLine().contains("ensure"),
                "a keeper command says itself what the keeper should do");
    }

    @Test
    void aKeeperItsOwnScriptSeesRunningStartsNoNvidbForEnsure() throws Exception {
        Path calls = tmp.resolve("calls");
        Path nvidb = fake(tmp.resolve("nvidb"), "echo \"$*\" >> '" + calls + "'\n");
        Path home = Files.createDirectories(tmp.resolve("host home"));
        Path status = fake(home.resolve("queue-keeper.sh"), "[ \"$1\" = status ] && echo up 1 && exit 0\nexit 9\n");
        assertEquals(0, sh(SshCommand.forCommand(remote(nvidb.toString(), home.toString(), true, null, null, List.of()),
                List.of("job", "ls")).commandLine(), tmp));
        assertEquals(List.of("--forward-protocol=1"), Files.readAllLines(calls), "up: no JVM for ensure");

        Files.writeString(status, "exit 1\n"); // down (or not a shell keeper): ensure decides
        Files.delete(calls);
        assertEquals(0, sh(SshCommand.forCommand(remote(nvidb.toString(), home.toString(), true, null, null, List.of()),
                List.of("job", "ls")).commandLine(), tmp));
        assertEquals(List.of("queue keeper ensure", "--forward-protocol=1"), Files.readAllLines(calls));
    }

    private static Path fake(Path file, String body) throws Exception {
        Files.writeString(file, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static int sh(String line, Path home) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", line).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        assertEquals("", said);
        return exit;
    }
}
