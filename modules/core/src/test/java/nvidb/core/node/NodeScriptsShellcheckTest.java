package nvidb.core.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * shellcheck over every node script: each resource as it is shipped, and each as nvidb fills it
 * in. Where shellcheck is missing the check skips, naming its Debian package: {@code ./run-tests}
 * installs it where it runs as root with apt-get (as CI does), and lists every skip at its end.
 */
class NodeScriptsShellcheckTest {
    @TempDir
    Path tmp;

    /** Every .sh resource next to NodeShell, as the build ships it. */
    static List<String> resources() throws IOException, URISyntaxException {
        Path dir = Path.of(NodeShell.class.getResource("lib.sh").toURI()).getParent();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> shipped = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sh")).sorted().toList();
            assertTrue(shipped.containsAll(List.of("lib.sh", "run.sh", "launch.sh", "probe.sh", "lane-runner.sh")), shipped::toString);
            return shipped;
        }
    }

    @ParameterizedTest
    @MethodSource("resources")
    void aResourceAsShippedHasNoWarnings(String name) throws Exception {
        shellcheck(name, NodeShell.resource(name));
    }

    /**
     * Filled in with plain values (blanks, no quotes): shellcheck reads a value full of quotes and
     * {@code $(…)} inside single quotes as a likely slip (SC2016, SC2089), when quoting it so is the
     * point. That such values stay data is proven by running them (NodeScriptsTest).
     */
    static Stream<Map.Entry<String, String>> filledIn() {
        return NodeScriptsFixtures.filledIn("plain value/with blanks").entrySet().stream();
    }

    @ParameterizedTest
    @MethodSource("filledIn")
    void aFilledInScriptHasNoWarnings(Map.Entry<String, String> script) throws Exception {
        shellcheck(script.getKey(), script.getValue());
    }

    private void shellcheck(String name, String text) throws Exception {
        Path file = tmp.resolve(name.replaceAll("[^A-Za-z0-9.-]", "_"));
        Files.writeString(file, text);
        Process p;
        try {
            p = new ProcessBuilder("shellcheck", "-s", "sh", "-f", "gcc", file.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            // Every node script must pass it: where it cannot run, the test says so by skipping.
            assumeTrue(false, "shellcheck is not installed (Debian package shellcheck; ./run-tests installs it when"
                    + " it runs as root with apt-get)");
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("shellcheck did not finish within 60 s on " + name);
        }
        assertEquals(0, p.exitValue(), name + ":\n" + out);
    }
}
