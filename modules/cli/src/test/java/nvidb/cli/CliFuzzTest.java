package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI fuzzer, CI-sized: random command lines ({@link CliFuzz}) against a scratch queue with
 * jobs in several states. Every one ends with an exit code from the table, never a stack trace
 * or an unexpected exception, with exactly one JSON document under {@code --json}, and every
 * rejected one (usage, not found, conflict) leaves the database as it was — except a command
 * that acts on several ids, which acts on every id it can. {@code bench/cli-fuzz.sh} runs the
 * same with many more vectors ({@code -Dnvidb.fuzz.vectors}, {@code -Dnvidb.fuzz.seed}).
 */
class CliFuzzTest {
    /** Commands that act on each id they can and report the rest (docs/exit-codes.md, "Several ids"). */
    private static final Set<String> PER_ID = Set.of("cancel", "requeue", "release", "ack");

    @TempDir
    Path tmp;

    @Test
    void randomCommandLinesEndCleanly() throws Exception {
        int vectors = Integer.getInteger("nvidb.fuzz.vectors", 400);
        long seed = Long.getLong("nvidb.fuzz.seed", 24_401L);
        Cli cli = new Cli(tmp);
        // No node: nothing a fuzzed submit asks for ever runs.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        long pending = cli.json("job", "submit", "--gpus", "0", "--name", "p", "--", "true").path("job").path("id").asLong();
        cli.json("job", "submit", "--gpus", "0", "--after", Long.toString(pending), "--", "true");
        long cancelled = cli.json("job", "submit", "--gpus", "0", "--", "true").path("job").path("id").asLong();
        cli.json("job", "cancel", Long.toString(cancelled));
        Path scratch = Files.createDirectories(tmp.resolve("scratch"));

        CliFuzz fuzz = new CliFuzz();
        Random random = new Random(seed);
        TreeMap<Integer, Integer> exits = new TreeMap<>();
        for (int i = 0; i < vectors; i++) {
            int n = i;
            List<String> argv = fuzz.next(random, 1 + random.nextInt(5), scratch);
            if (Boolean.getBoolean("nvidb.fuzz.print")) {
                System.out.println("fuzz " + n + ": " + render(argv));
            }
            String before = content(cli);
            // A command that blocks (a new serving command not in CliFuzz.BLOCKING) fails here,
            // named, instead of holding the whole suite up.
            Cli.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> cli.run(argv.toArray(String[]::new)),
                    () -> "vector " + n + " (seed " + seed + ") did not end within 60 s: " + render(argv));
            String after = content(cli);
            exits.merge(r.exit(), 1, Integer::sum);
            String where = "vector " + i + " (seed " + seed + "): " + render(argv) + "\n" + r;
            assertTrue(CliFuzz.EXIT_CODES.contains(r.exit()), () -> "exit code outside the table: " + where);
            assertTrue(r.exit() != 69 && r.exit() != 130 && r.exit() != 143, () -> "no remote, no signal: " + where);
            for (String text : List.of(r.out(), r.err())) {
                if (text.contains("NVIDB_DEBUG=1") || text.contains("\tat ") || text.contains("Exception:")) {
                    fail("an unexpected exception reached the user: " + where);
                }
            }
            boolean help = argv.contains("--help") || argv.contains("-h") || argv.contains("--version") || argv.contains("-V");
            int dd = argv.indexOf("--");
            boolean json = (dd < 0 ? argv : argv.subList(0, dd)).contains("--json");
            if (json && !help && !r.out().isEmpty()) {
                r.json(); // exactly one document, errors included
                assertTrue(r.err().isBlank() || r.exit() != 0 || !r.err().startsWith("error:"), where);
            }
            if (r.exit() != 0 && !(r.exit() != 64 && argv.stream().anyMatch(PER_ID::contains))) {
                assertEquals(before, after, () -> "a rejected command changed the database: " + where);
            }
            if (r.exit() != 0) {
                assertTrue(!r.err().isBlank() || !r.out().isBlank(), () -> "a failure says why: " + where);
            }
        }
        System.out.println("CliFuzzTest: " + vectors + " vectors, seed " + seed + ", exit codes " + exits);
        assertTrue(exits.getOrDefault(0, 0) > vectors / 20 && exits.getOrDefault(64, 0) > vectors / 5,
                () -> "the vectors reach both accepted and refused commands: " + exits);
    }

    /**
     * The queue's rows, less the time and duration of the last scheduler pass: a read command makes its pass
     * before it looks at its arguments, and that pass is not the command's doing.
     */
    static String content(Cli cli) throws Exception {
        return DbSnapshot.of(cli.database()).replaceAll("key=last_tick_(at|ms) value=\\S+ ", "");
    }

    private static String render(List<String> argv) {
        StringBuilder sb = new StringBuilder("nvidb");
        for (String a : argv) {
            sb.append(' ').append(Cli.q(a.length() > 80 ? a.substring(0, 80) + "…(" + a.length() + ")" : a));
        }
        return sb.toString();
    }
}
