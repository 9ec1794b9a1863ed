package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20: the packages {@code mvn package} leaves in target/. The .deb is installed with the real
 * dpkg (as root, as in CI), runs a job from a clean HOME, has its manual page found by man, and
 * leaves no file of its own behind after {@code dpkg -r} (and the user's ~/.nvidb untouched). The
 * tarball, extracted into a folder whose name has a space, runs the same job and starts as fast
 * as the built image: its AOT cache is valid there as built. SHA256SUMS holds for both.
 */
class PackagesIT {
    private static final String VERSION = System.getProperty("nvidb.version", "0.1.0");

    @TempDir
    Path tmp;

    private static Path target() {
        return Client.image().getParent().getParent().getParent();
    }

    private static Path only(String glob) throws IOException {
        try (var files = Files.newDirectoryStream(target(), glob)) {
            List<Path> found = new ArrayList<>();
            files.forEach(found::add);
            assertEquals(1, found.size(), "one " + glob + " in " + target() + ": " + found);
            return found.get(0);
        }
    }

    private record Ran(int exit, String out, String err) {
    }

    private Ran run(Map<String, String> env, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("NVIDB_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        StringBuilder errText = new StringBuilder();
        Thread err = Thread.ofVirtual().start(() -> {
            try {
                errText.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                errText.append(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        err.join();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), Arrays.toString(command));
        return new Ran(p.exitValue(), out, errText.toString());
    }

    private Ran ok(Map<String, String> env, String... command) throws Exception {
        Ran r = run(env, command);
        assertEquals(0, r.exit(), Arrays.toString(command) + "\n" + r.out() + r.err());
        return r;
    }

    /** A job from a clean HOME through {@code nvidb}: submitted, waited for, its log read back. */
    private void runsAJob(String nvidb, Path home) throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString());
        Ran submit = ok(env, nvidb, "job", "submit", "--wait", "--gpus", "0", "--", "echo", "hi");
        assertTrue(submit.out().contains("completed"), submit.out());
        assertEquals("hi\n", ok(env, nvidb, "job", "logs", "1").out());
        assertTrue(Files.isRegularFile(home.resolve(".nvidb/queue.db")));
        Ran version = ok(env, nvidb, "--version");
        assertTrue(version.out().matches("nvidb " + VERSION.replace(".", "\\.") + " \\(commit [0-9a-f]{12}(-dirty)?\\)\n"),
                version.out());
        // AOTMode=on refuses to start without the cache: it holds for this copy as built.
        ok(Map.of("HOME", home.toString(), "NVIDB_JAVA_OPTS", "-XX:AOTMode=on"), nvidb, "--version");
    }

    @Test
    void debInstallsRunsAJobAndRemovesEveryFileItInstalled() throws Exception {
        // package.sh builds the .deb only where dpkg-deb is (Debian package dpkg).
        assumeTrue(HostTools.installed("dpkg-deb"), HostTools.missing("dpkg-deb", "dpkg"));
        assumeTrue(HostTools.installed("man"), HostTools.missing("man", "man-db"));
        assumeTrue("root".equals(System.getProperty("user.name")), "dpkg -i needs root (./run-tests as root, as CI runs it)");
        Path deb = only("nvidb_*.deb");
        assumeTrue(run(Map.of(), "dpkg", "-s", "nvidb").exit() != 0, "an nvidb package is installed here already");
        ok(Map.of(), "dpkg", "-i", deb.toString());
        List<String> installed;
        Path home = Files.createDirectories(tmp.resolve("clean home"));
        try {
            installed = ok(Map.of(), "dpkg", "-L", "nvidb").out().lines().toList();
            runsAJob("/usr/bin/nvidb", home);
            assertEquals("/usr/share/man/man1/nvidb.1.gz\n", ok(Map.of(), "man", "-w", "nvidb").out());
            assertEquals("/usr/share/man/man1/nvidb-job-submit.1.gz\n", ok(Map.of(), "man", "-w", "nvidb-job-submit").out());
            for (String f : List.of("/usr/share/bash-completion/completions/nvidb", "/usr/share/zsh/vendor-completions/_nvidb",
                    "/usr/share/fish/vendor_completions.d/nvidb.fish", "/usr/lib/systemd/user/nvidb-queue.service",
                    "/usr/share/doc/nvidb/copyright", "/usr/share/doc/nvidb/licenses/picocli-4.7.7/LICENSE-Apache-2.0.txt",
                    "/usr/share/doc/nvidb/licenses/java-runtime/java.base/LICENSE")) {
                assertTrue(installed.contains(f) && Files.isRegularFile(Path.of(f)), f + " installed");
            }
            String bash = ok(Map.of("HOME", home.toString()), "bash", "-c", "source /usr/share/bash-completion/completions/nvidb;"
                    + " compopt() { :; }; COMP_WORDS=(nvidb job sub); COMP_CWORD=2; _nvidb_complete nvidb sub job;"
                    + " echo \"${COMPREPLY[*]}\"").out();
            assertEquals("submit\n", bash);
        } finally {
            ok(Map.of(), "dpkg", "-r", "nvidb");
        }
        List<String> left = new ArrayList<>();
        for (String f : installed) {
            Path p = Path.of(f);
            if (!f.equals("/.") && Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p)) {
                left.add(f);
            }
        }
        assertEquals(List.of(), left, "dpkg -r leaves no file of the package behind");
        assertFalse(Files.exists(Path.of("/opt/nvidb")), "/opt/nvidb is gone");
        assertTrue(Files.isRegularFile(home.resolve(".nvidb/queue.db")), "the user's ~/.nvidb stays");
    }

    @Test
    void tarballRunsFromAFolderWithASpaceAsFastAsTheBuiltImage() throws Exception {
        Path tarball = only("nvidb-" + VERSION + "-linux-*.tar.gz");
        Path into = Files.createDirectories(tmp.resolve("with space"));
        ok(Map.of(), "tar", "-C", into.toString(), "-xzf", tarball.toString());
        Path nvidb = into.resolve("nvidb-" + VERSION + "/bin/nvidb");
        runsAJob(nvidb.toString(), Files.createDirectories(tmp.resolve("home of tar")));
        assertTrue(Files.isRegularFile(into.resolve("nvidb-" + VERSION + "/share/man/man1/nvidb-doctor.1.gz")));

        // CPU time (user + sys) of --version, run for run alternating with the built image: the
        // machine's load moves wall time far more than CPU time.
        Path built = Client.image();
        List<Double> extracted = new ArrayList<>();
        List<Double> image = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            extracted.add(cpuSeconds(nvidb));
            image.add(cpuSeconds(built));
        }
        double e = median(extracted);
        double b = median(image);
        System.out.printf("--version CPU: extracted %.3f s, built image %.3f s (medians of 9)%n", e, b);
        assertTrue(e <= b * 1.2, "extracted " + e + " s against " + b + " s for the built image");
    }

    /** The CPU seconds one {@code nvidb --version} costs, as the shell's {@code times} counts its children. */
    private double cpuSeconds(Path nvidb) throws Exception {
        String out = ok(Map.of("HOME", tmp.toString()), "sh", "-c", "\"$0\" --version > /dev/null; times", nvidb.toString())
                .out();
        String[] children = out.lines().toList().get(1).split("\\s+");
        return seconds(children[0]) + seconds(children[1]);
    }

    private static double seconds(String mAndS) {
        int m = mAndS.indexOf('m');
        return Double.parseDouble(mAndS.substring(0, m)) * 60 + Double.parseDouble(mAndS.substring(m + 1, mAndS.length() - 1));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void sha256sumsHoldsForBothPackages() throws Exception {
        Path sums = target().resolve("SHA256SUMS");
        List<String> lines = Files.readAllLines(sums);
        // The tarball, and the .deb where dpkg-deb built one.
        assertEquals(HostTools.installed("dpkg-deb") ? 2 : 1, lines.size(), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("  nvidb-" + VERSION + "-linux-x64.tar.gz"))
                || lines.stream().anyMatch(l -> l.contains("  nvidb-" + VERSION + "-linux-")), lines.toString());
        Ran check = run(Map.of(), "sh", "-c", "cd \"$0\" && sha256sum -c SHA256SUMS", target().toString());
        assertEquals(0, check.exit(), check.out() + check.err());
    }
}
