package nvidb.core.keeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a keeper install writes, checked by the tools that read them: the supervisor script
 * by shellcheck (required, as for the node scripts), the systemd unit by {@code systemd-analyze
 * verify} where this machine has one that works.
 */
class KeeperFilesTest {
    @TempDir
    Path tmp;

    /** Paths with blanks, quotes and $: the values must stay data in both files. */
    private Path awkward(String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("it's a $HOME %n"));
        return dir.resolve(name);
    }

    @Test
    void theSupervisorScriptPassesShellcheck() throws Exception {
        // Plain values with blanks: shellcheck reads a value full of quotes and $ inside single
        // quotes as a likely slip, when quoting it so is the point (the next test runs such values).
        Path plain = Files.createDirectories(tmp.resolve("plain value/with blanks"));
        String script = ShellKeeper.script(plain.resolve("home"), plain.resolve("nvidb"), plain.resolve("queue.db"), 15);
        assertTrue(script.contains("interval=15\n"), script);
        Path file = tmp.resolve("queue-keeper.sh");
        Files.writeString(file, script);
        Process p;
        try {
            p = new ProcessBuilder("shellcheck", "-s", "sh", "-f", "gcc", file.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "shellcheck is not installed (Debian package shellcheck; ./run-tests installs it when"
                    + " it runs as root with apt-get)");
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "shellcheck did not finish");
        assertEquals(0, p.exitValue(), out);
    }

    @Test
    void theScriptKeepsEveryValueOneWord() throws Exception {
        Path home = awkward("home");
        String script = ShellKeeper.script(home, awkward("nvidb"), awkward("queue.db"), 7);
        Path file = tmp.resolve("probe.sh");
        // The script's assignments, then the values printed back: what sh reads them as.
        String head = script.substring(0, script.indexOf("self="));
        Files.writeString(file, head + "printf '%s\\n' \"$NVIDB_HOME\" \"$nvidb\" \"$db\" \"$interval\"\n");
        Process p = new ProcessBuilder("sh", file.toString()).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of(home.toString(), awkward("nvidb").toString(), awkward("queue.db").toString(), "7"), lines);
    }

    @Test
    void theSystemdUnitPassesSystemdAnalyzeVerifyWhereThereIsOne() throws Exception {
        // systemd refuses quotes, $ and % in an executable's name, whatever the quoting: blanks there.
        Path nvidb = Files.createDirectories(tmp.resolve("the bin")).resolve("nvidb");
        Files.writeString(nvidb, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(nvidb, PosixFilePermissions.fromString("rwxr-xr-x"));
        String unit = SystemdKeeper.unit(awkward("home"), nvidb, awkward("queue.db"), 15);
        assertTrue(unit.contains("Restart=always"), unit);
        assertTrue(unit.contains("--interval 15"), unit);
        assertTrue(unit.contains("$$HOME %%n"), "$ and % are escaped for systemd: " + unit);
        Path file = tmp.resolve(KeeperFiles.UNIT_NAME);
        Files.writeString(file, unit);
        Path runtime = Files.createDirectories(tmp.resolve("runtime"));
        ProcessBuilder pb = new ProcessBuilder("systemd-analyze", "verify", "--user", file.toString()).redirectErrorStream(true);
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            assumeTrue(false, "systemd-analyze is not installed (Debian package systemd; ./run-tests does not install"
                    + " it: a container has no systemd to verify the unit with)");
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "systemd-analyze did not finish");
        assumeTrue(!out.contains("Failed to initialize manager") && !out.contains("Failed to connect to bus"),
                "systemd-analyze cannot run here: " + out);
        assertEquals(0, p.exitValue(), unit + "\n" + out);
    }

    @Test
    void anExecutableSystemdWouldRefuseIsRefusedAtInstall() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(nvidb.core.api.NvidbException.class,
                () -> SystemdKeeper.unit(tmp, Path.of("/opt/it's/nvidb"), tmp.resolve("q.db"), 15));
        assertEquals(nvidb.core.api.ErrorCode.USAGE, e.code());
        assertTrue(e.getMessage().contains("shell keeper"), e.getMessage());
    }

    @Test
    void theFilesOfAHomeAreInItAndTheUnitWhereSystemdLooks() {
        KeeperFiles f = KeeperFiles.of(tmp, Map.of("HOME", "/home/u"));
        assertEquals(tmp.resolve("queue-keeper.sh"), f.script());
        assertEquals(Path.of("/home/u/.config/systemd/user/nvidb-queue.service"), f.unit());
        assertEquals(Path.of("/x/systemd/user/nvidb-queue.service"),
                KeeperFiles.of(tmp, Map.of("HOME", "/home/u", "XDG_CONFIG_HOME", "/x")).unit());
    }
}
