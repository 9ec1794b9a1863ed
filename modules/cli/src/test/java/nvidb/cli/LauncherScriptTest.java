package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./nvidb} launcher at the repository root builds the image on first use. That build
 * runs Maven for a user who did not ask for it, so it must not paint their terminal: batch mode,
 * no transfer progress, and no reset codes at exit. The launcher runs here for real, from a copy
 * of the checkout's scripts, with a stand-in {@code mvn} that records how it was called.
 */
class LauncherScriptTest {
    private static final Path REPO = Path.of("../..");

    @TempDir
    Path tmp;

    @Test
    void theFirstBuildRunsMavenInBatchModeAndWritesNoEscapeCodes() throws Exception {
        Path root = tmp.resolve("checkout");
        Files.createDirectories(root.resolve("scripts"));
        Files.createDirectories(root.resolve("modules/core"));
        Files.copy(REPO.resolve("nvidb"), root.resolve("nvidb"));
        Files.copy(REPO.resolve("scripts/find-jdk25.sh"), root.resolve("scripts/find-jdk25.sh"));
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        Files.writeString(root.resolve("modules/core/pom.xml"), "<project/>\n");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        // The stand-in build: records its arguments and leaves an image that echoes its own.
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, """
                #!/bin/sh
                printf '%s\\n' "$@" > "$PWD/mvn-args"
                image=distribution/target/nvidb
                mkdir -p "$image/bin"
                printf '#!/bin/sh\\necho "image $*"\\n' > "$image/bin/nvidb"
                chmod +x "$image/bin/nvidb"
                touch "$image/.stamp"
                """);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

        ProcessBuilder pb = new ProcessBuilder("sh", root.resolve("nvidb").toString(), "job", "ls");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        Cli.Result r = Cli.finish(pb.start(), 60);

        assertEquals(0, r.exit(), r.toString());
        assertEquals("image job ls\n", r.out());
        List<String> args = Files.readAllLines(root.resolve("mvn-args"));
        assertTrue(args.contains("-B") && args.contains("-ntp"), "mvn called with " + args);
        assertTrue(args.contains("install"), "mvn called with " + args);
        assertFalse(r.err().contains("\u001b"), "escape codes on stderr:\n" + r.err());
        assertTrue(r.err().contains("mvn -B -ntp"), r.err());
    }

    /** Maven 3.8's console library writes a colour reset at exit even in batch mode; this turns it off. */
    @Test
    void everyBuildInTheCheckoutSkipsTheConsoleResetCodes() throws Exception {
        assertTrue(Files.readString(REPO.resolve(".mvn/jvm.config")).contains("-Djansi.noreset=true"));
    }
}
