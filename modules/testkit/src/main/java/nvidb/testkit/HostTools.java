package nvidb.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The programs of this host that tests drive for real (zsh, fish, tmux, shellcheck, man, sshd,
 * chromium, …). Where one is missing, the test that needs it skips (a JUnit assumption) with
 * {@link #missing}'s sentence, which names the Debian package that brings it; {@code ./run-tests}
 * installs them all first where it runs as root with apt-get, and lists every skip at its end.
 *
 * <pre>{@code
 * assumeTrue(HostTools.installed("zsh"), HostTools.missing("zsh", "zsh"));
 * }</pre>
 */
public final class HostTools {
    private HostTools() {
    }

    /** Whether {@code command} is here: an absolute path that is executable, or a name on PATH. */
    public static boolean installed(String command) {
        if (command.startsWith("/")) {
            return Files.isExecutable(Path.of(command));
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** The sentence a test skips with where {@code command} is missing: what, and which Debian package brings it. */
    public static String missing(String command, String debianPackage) {
        return command + " is not installed (Debian package " + debianPackage + "; ./run-tests installs it when it"
                + " runs as root with apt-get)";
    }
}
