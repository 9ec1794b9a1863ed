package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input ends with the documented exit code, a sentence naming what was wrong, no stack
 * trace, and the database exactly as it was.
 */
class BadInputTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp);
        cli.json("job", "submit", "--gpus", "0", "--name", "existing", "--", "true");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(new String[] {"job", "submit", "--vram", "20X", "--", "true"}, 64, "unknown size unit 'X' in '20X'"),
                Arguments.of(new String[] {"job", "submit", "--vram", "-1G", "--", "true"}, 64, "invalid size '-1G'"),
                Arguments.of(new String[] {"job", "submit", "--vram", "abc", "--", "true"}, 64, "(try 20G, 512M, or 20480)"),
                Arguments.of(new String[] {"job", "show", "404"}, 3, "job 404 not found"),
                Arguments.of(new String[] {"job", "show", "x"}, 64, "invalid id 'x'"),
                Arguments.of(new String[] {"job", "cancel", "1,x"}, 64, "invalid id 'x'"),
                Arguments.of(new String[] {"job", "result", "1", "--set", "not json"}, 64, "--set needs a JSON value"),
                Arguments.of(new String[] {"job", "submit", "--frobnicate", "--", "true"}, 64, "Unknown option: '--frobnicate'"),
                Arguments.of(new String[] {"job", "submit", "--gpus", "0"}, 64, "nothing to run"),
                Arguments.of(new String[] {"job", "submit", "--gpus", "-1", "--", "true"}, 64, "--gpus cannot be negative"),
                Arguments.of(new String[] {"job", "submit", "--gpus", "two", "--", "true"}, 64, "'two' is not an int"),
                Arguments.of(new String[] {"job", "submit", "--timeout", "0", "--", "true"}, 64, "--timeout must be a positive number"),
                Arguments.of(new String[] {"job", "submit", "--retries", "-1", "--", "true"}, 64, "--retries cannot be negative"),
                Arguments.of(new String[] {"job", "submit", "--env", "1BAD=x", "--", "true"}, 64, "not a valid variable name"),
                Arguments.of(new String[] {"job", "submit", "--env", "NOEQUALS", "--", "true"}, 64, "--env takes KEY=VALUE"),
                Arguments.of(new String[] {"job", "submit", "--after", "99", "--", "true"}, 3, "dependency job 99 does not exist"),
                Arguments.of(new String[] {"job", "submit", "--node", "nowhere", "--", "true"}, 3, "unknown node 'nowhere'"),
                Arguments.of(new String[] {"job", "submit", "--script", "/no/such/file"}, 64, "script not found: /no/such/file"),
                Arguments.of(new String[] {"job", "ls", "--state", "sleeping"}, 64, "unknown state 'sleeping'"),
                Arguments.of(new String[] {"queue", "ack"}, 64, "name the alerts to acknowledge"),
                Arguments.of(new String[] {"queue", "events", "--since", "x"}, 64, "--since takes an event id"));
    }

    /**
     * Every size, duration, count and position a command takes, given as an empty or a blank word
     * (an unset shell variable, {@code --vram "$VRAM"}): a usage error naming the option, never a
     * silent default. Each row is run with "" and with "  ".
     */
    static Stream<Arguments> blankValues() {
        Stream<String[]> rows = Stream.of(
                new String[] {"--vram", "job", "submit", "--vram", "%s", "--", "true"},
                new String[] {"--gpus", "job", "submit", "--gpus", "%s", "--", "true"},
                new String[] {"--timeout", "job", "submit", "--timeout", "%s", "--", "true"},
                new String[] {"--retries", "job", "submit", "--retries", "%s", "--", "true"},
                new String[] {"--priority", "job", "submit", "--priority", "%s", "--", "true"},
                new String[] {"--wait-timeout", "job", "submit", "--wait", "--wait-timeout", "%s", "--", "true"},
                new String[] {"--at", "job", "submit", "--lane", "nowhere:0", "--at", "%s", "--", "true"},
                new String[] {"--timeout", "job", "wait", "1", "--timeout", "%s"},
                new String[] {"--logs", "job", "wait", "1", "--logs", "%s"},
                new String[] {"--limit", "job", "ls", "-n", "%s"},
                new String[] {"--number", "job", "logs", "1", "-n", "%s"},
                new String[] {"(VALUE)", "job", "priority", "1", "%s"},
                new String[] {"--up", "job", "priority", "1", "--up", "%s"},
                new String[] {"--down", "job", "priority", "1", "--down", "%s"},
                new String[] {"--number", "queue", "alerts", "-n", "%s"},
                new String[] {"--number", "queue", "events", "-n", "%s"},
                new String[] {"--since", "queue", "events", "--since", "%s"},
                new String[] {"--watch", "queue", "tick", "--watch", "%s"},
                new String[] {"concurrency", "queue", "lane", "nowhere:0", "concurrency", "%s"},
                new String[] {"--to", "queue", "lane", "nowhere:0", "move", "1", "--to", "%s"},
                new String[] {"--at", "queue", "lane", "nowhere:0", "assign", "1", "--at", "%s"});
        return rows.flatMap(row -> Stream.of("", "  ").map(blank -> Arguments.of(
                Stream.of(row).skip(1).map(w -> w.equals("%s") ? blank : w).toArray(String[]::new), 64, row[0])));
    }

    @ParameterizedTest
    @MethodSource("blankValues")
    void anEmptyOrBlankSizeDurationOrCountIsAUsageError(String[] args, int exit, String option) throws Exception {
        refusedWithASentenceAndNothingChanges(args, exit, option);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void refusedWithASentenceAndNothingChanges(String[] args, int exit, String message) throws Exception {
        String before = DbSnapshot.of(cli.database());
        Cli.Result r = cli.run(args);
        assertEquals(exit, r.exit(), r.toString());
        assertTrue(r.err().startsWith("error: "), r.toString());
        assertTrue(r.err().contains(message), "expected '" + message + "' in:\n" + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace:\n" + r.err());
        assertEquals("", r.out());
        assertEquals(before, DbSnapshot.of(cli.database()));

        String[] withJson = Stream.concat(Stream.of(args).limit(2), Stream.concat(Stream.of("--json"),
                Stream.of(args).skip(2))).toArray(String[]::new);
        Cli.Result j = cli.run(withJson);
        assertEquals(exit, j.exit(), j.toString());
        JsonNode doc = j.json();
        assertFalse(doc.path("ok").asBoolean(true));
        assertTrue(doc.path("error").asText().contains(message), doc.toString());
        assertEquals(exit == 3 ? "not_found" : "usage", doc.path("code").asText());
        assertEquals("", j.err());
        assertEquals(before, DbSnapshot.of(cli.database()));
    }

    @org.junit.jupiter.api.Test
    void brokenQueueYmlIsAUsageErrorNamingFileAndLine() throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  headroom_mb: [oops\n");
        String before = DbSnapshot.of(cli.database());
        Cli.Result r = cli.run("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(64, r.exit(), r.toString());
        assertTrue(r.err().contains("queue.yml"), r.err());
        assertTrue(r.err().contains("line "), r.err());
        assertEquals(before, DbSnapshot.of(cli.database()));

        cli.write(".nvidb/queue.yml", "queue:\n  headroom_mb: lots\n");
        Cli.Result wrongType = cli.run("job", "ls");
        assertEquals(64, wrongType.exit(), wrongType.toString());
        assertTrue(wrongType.err().contains("queue.yml, line 2: queue.headroom_mb must be a size"), wrongType.err());

        cli.write(".nvidb/queue.yml", "queue:\n  placement: random\n");
        Cli.Result unknown = cli.run("job", "ls");
        assertEquals(64, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("line 2: queue.placement must be one of"), unknown.err());
        assertEquals(before, DbSnapshot.of(cli.database()));
    }

    /** Keys core does not know are checked by their plugin when configuration loads, with the same words. */
    @org.junit.jupiter.api.Test
    void aBadPluginKeyStopsEveryCommandAtStartNamingFileAndLine() throws Exception {
        String before = DbSnapshot.of(cli.database());
        String queueYml = cli.home().resolve(".nvidb/queue.yml").toString();
        cli.write(".nvidb/queue.yml", "servers:\n  - hostname: gpu-box-1\n    auth: kerberos\n");
        Cli.Result transport = cli.run("job", "ls");
        assertEquals(64, transport.exit(), transport.toString());
        assertEquals("error: configuration " + queueYml + ", line 3: servers[0].auth must be auto, key or password,"
                + " not 'kerberos'\n", transport.err());

        cli.write(".nvidb/queue.yml", "queue:\n  notify:\n    desktop: sometimes\n");
        Cli.Result sink = cli.run("job", "ls", "--json");
        assertEquals(64, sink.exit(), sink.toString());
        assertEquals("configuration " + queueYml + ", line 3: queue.notify.desktop must be true or false, not value"
                + " 'sometimes'", sink.json().path("error").asText());
        assertEquals(before, DbSnapshot.of(cli.database()));
    }
}
