package nvidb.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The SPI is a contract with site plugins compiled against an older nvidb, so any change to its
 * public signatures must be deliberate: this test compares them (see {@link Signatures}) with the
 * file checked in beside it and fails on any difference, listing the lines added and removed.
 * After a deliberate change, {@code -Dnvidb.spi.acceptChanges=true} rewrites the file, and the
 * diff of that file in review shows what moved (Trino's SPI compatibility test works so).
 */
class SpiSignaturesTest {
    static final String ACCEPT = "nvidb.spi.acceptChanges";
    static final String HOW_TO_ACCEPT =
            "mvn -pl modules/spi test -Dtest=SpiSignaturesTest -D" + ACCEPT + "=true";
    private static final String HEADER = """
            # The public signatures of nvidb's SPI (module nvidb.spi): every public or protected type of an
            # exported package and each member a plugin can see, one line each, sorted. SpiSignaturesTest
            # fails when the compiled SPI differs from this file. Site plugins are compiled against these
            # lines: a removed or changed line breaks them, an added one is new API. To record a deliberate
            # change, run
            #   %s
            # and commit this file with it.
            """.formatted(HOW_TO_ACCEPT);

    /** Maven runs a module's tests in the module's folder and names it in {@code basedir}. */
    private static Path recorded() {
        return Path.of(System.getProperty("basedir", ".")).resolve("src/test/resources/spi-signatures.txt");
    }

    @Test
    void theSpiSignaturesAreTheRecordedOnes() throws IOException {
        List<String> actual = Signatures.of(PluginFactory.class);
        Path file = recorded();
        List<String> expected = Files.isRegularFile(file)
                ? Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isBlank() && !l.startsWith("#")).toList()
                : List.of();
        String difference = difference(expected, actual);
        if (difference.isEmpty()) {
            return;
        }
        if (Boolean.getBoolean(ACCEPT)) {
            Files.writeString(file, HEADER + String.join("\n", actual) + "\n", StandardCharsets.UTF_8);
            System.out.println("Recorded the SPI's new signatures in " + file + ":\n" + difference);
            return;
        }
        fail("The SPI's public signatures differ from " + file + ":\n" + difference
                + "If the change is deliberate, record it with\n  " + HOW_TO_ACCEPT
                + "\nand commit the file; a removed or changed line breaks site plugins built against the old SPI.");
    }

    /** Lines only in {@code actual} ({@code +}) and only in {@code expected} ({@code -}); empty when equal. */
    static String difference(List<String> expected, List<String> actual) {
        Set<String> added = new TreeSet<>(actual);
        added.removeAll(new LinkedHashSet<>(expected));
        Set<String> removed = new TreeSet<>(expected);
        removed.removeAll(new LinkedHashSet<>(actual));
        StringBuilder sb = new StringBuilder();
        if (!added.isEmpty()) {
            sb.append("added (").append(added.size()).append("):\n");
            added.forEach(l -> sb.append("+ ").append(l).append('\n'));
        }
        if (!removed.isEmpty()) {
            sb.append("removed (").append(removed.size()).append("):\n");
            removed.forEach(l -> sb.append("- ").append(l).append('\n'));
        }
        if (sb.isEmpty() && !expected.equals(actual)) {
            sb.append("the same lines, but the file is not sorted or repeats a line\n");
        }
        return sb.toString();
    }

    @Test
    void everyExportedPackageIsRecorded() {
        // Guards the comparison against passing because it saw nothing.
        List<String> lines = Signatures.of(PluginFactory.class);
        Set<String> packages = Signatures.exportedPackages(PluginFactory.class);
        assertEquals(Set.of("nvidb.spi", "nvidb.spi.alert", "nvidb.spi.config", "nvidb.spi.batch", "nvidb.spi.placement",
                "nvidb.spi.probe", "nvidb.spi.transport"), packages);
        Set<String> seen = new TreeSet<>();
        for (String line : lines) {
            String type = line.substring(0, line.indexOf(' '));
            seen.add(type.substring(0, type.lastIndexOf('.')));
        }
        assertEquals(packages, seen, "every exported package has a recorded type, and no other package does");
    }

    @Test
    void signaturesSayWhatAPluginAuthorNeedsToKnow() {
        List<String> lines = Signatures.of(PluginFactory.class);
        List<String> missing = new ArrayList<>();
        for (String expected : List.of(
                "nvidb.spi.PluginFactory type: public interface PluginFactory",
                "nvidb.spi.PluginFactory method: public default java.lang.String version()",
                "nvidb.spi.PluginKind enum constant: ALERT_SINK",
                "nvidb.spi.PluginKind enum constant: BATCH_SCHEDULER",
                "nvidb.spi.batch.BatchSchedulerFactory type: public interface BatchSchedulerFactory extends"
                        + " nvidb.spi.PluginFactory",
                "nvidb.spi.batch.BatchSchedulerFactory method: public abstract nvidb.spi.batch.BatchScheduler"
                        + " create(java.util.Map<java.lang.String, java.lang.Object>)",
                "nvidb.spi.alert.AlertMessage component 4: java.lang.Long jobId",
                "nvidb.spi.alert.AlertSinkFactory method: public abstract nvidb.spi.alert.AlertSink"
                        + " create(java.util.Map<java.lang.String, java.lang.Object>, nvidb.spi.alert.SinkContext)",
                "nvidb.spi.transport.Transport method: public abstract nvidb.spi.transport.ExecResult"
                        + " run(java.lang.String, java.time.Duration, boolean) throws nvidb.spi.transport.TransportException",
                "nvidb.spi.config.ConfigSection method: public java.lang.String oneOf(java.lang.String,"
                        + " java.lang.String, java.lang.String...)")) {
            if (!lines.contains(expected)) {
                missing.add(expected);
            }
        }
        assertEquals(List.of(), missing, "lines not found among:\n" + String.join("\n", lines));
    }

    @Test
    void theDifferenceListsAddedAndRemovedLines() {
        assertEquals("", difference(List.of("a", "b"), List.of("a", "b")));
        assertEquals("added (1):\n+ c\nremoved (1):\n- a\n", difference(List.of("a", "b"), List.of("b", "c")));
        assertEquals("the same lines, but the file is not sorted or repeats a line\n",
                difference(List.of("b", "a"), List.of("a", "b")));
    }
}
