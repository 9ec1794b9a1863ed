package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated values for what the commands parse themselves: priorities (set and adjusted, up to
 * the ends of the range), {@code --set} JSON, and the numbers and durations of a submit. Each
 * value is either taken as it means, or refused with exit 64 and the queue as it was. The
 * expected outcome comes from an oracle written apart from the code (a regular expression and
 * BigInteger; Jackson with trailing tokens refused). Seeded.
 */
class CliValuePropertiesTest {
    private static final ObjectMapper STRICT = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final BigInteger MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Integer.MAX_VALUE);

    @TempDir
    Path tmp;
    Cli cli;
    String job;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        job = cli.json("job", "submit", "--gpus", "0", "--", "true").path("job").path("id").asText();
    }

    private int priority() {
        return cli.json("job", "priority", job).path("priority").asInt();
    }

    @Test
    void aPrioritySetsOrAdjustsWithinTheRangeOrIsRefused() throws Exception {
        Random random = new Random(24_501L);
        String[] near = {"0", "1", "5", "+1", "-2", "+0", "-0", "007", "2147483647", "-2147483648", "+2147483647",
            "2147483648", "-2147483649", "99999999999", "1.5", "1e3", "five", "+", "-", "++1", "--1", "+-1", " 3 ", "0x10"};
        for (int i = 0; i < 60; i++) {
            // Start from somewhere, the ends of the range included.
            // (A value with a minus adjusts: the low end is reached from 0.)
            switch (random.nextInt(4)) {
                case 0 -> cli.json("job", "priority", job, Integer.toString(Integer.MAX_VALUE - random.nextInt(3)));
                case 1 -> {
                    cli.json("job", "priority", job, "0");
                    cli.json("job", "priority", job, "-" + (Integer.MAX_VALUE - random.nextInt(2)));
                }
                default -> cli.json("job", "priority", job, Integer.toString(random.nextInt(201)));
            }
            int start = priority();
            String value = random.nextBoolean() ? near[random.nextInt(near.length)]
                    : (random.nextBoolean() ? "+" : "-") + random.nextInt(5);
            BigInteger expected = expected(start, value);
            String before = CliFuzzTest.content(cli);
            Cli.Result r = cli.run("job", "priority", job, value);
            String what = "priority " + start + " then '" + value + "'\n" + r;
            if (expected == null) {
                assertEquals(64, r.exit(), what);
                assertTrue(r.err().contains(value.strip()) || r.err().contains("out of range"), what);
                assertEquals(before, CliFuzzTest.content(cli), what);
            } else {
                assertEquals(0, r.exit(), what);
                assertEquals(expected.intValueExact(), priority(), what);
            }
        }
    }

    /** What {@code value} makes of priority {@code start}, or null where it must be refused. */
    private static BigInteger expected(int start, String value) {
        String v = value.strip();
        // An adjustment is one sign then digits; a value to set, digits with at most a leading minus.
        if (!v.matches("[+-]?[0-9]+")) {
            return null;
        }
        BigInteger n = new BigInteger(v);
        BigInteger next = v.startsWith("+") || v.startsWith("-") ? BigInteger.valueOf(start).add(n) : n;
        return next.compareTo(MIN) < 0 || next.compareTo(MAX) > 0 || n.compareTo(MIN) < 0 || n.compareTo(MAX) > 0 ? null : next;
    }

    @Test
    void setStoresExactlyOneJsonValueOrIsRefused() throws Exception {
        Random random = new Random(24_502L);
        String[] values = {"{\"chosen_lr\": 1e-4}", "42", "\"a string\"", "null", "true", "[1, [2, {\"x\": null}]]",
            "-0.0", "1e400", "{\"a\": \"\\u00e9\\ud83d\\ude00\"}", "{}", "[]", "\"\"", "12345678901234567890123"};
        String[] breaks = {"", " ", "1 2", "{\"a\":1} x", "{\"a\":1}}", "[1,]", "{'a':1}", "tru", "NaN", "\"open",
            "{\"a\" 1}", "// c\n1", "0x10", "01", "[1] [2]", "\u0000"};
        for (int i = 0; i < 50; i++) {
            String text = random.nextInt(3) > 0 ? values[random.nextInt(values.length)] : breaks[random.nextInt(breaks.length)];
            if (random.nextInt(4) == 0) {
                text = " \n" + text + "\t ";
            }
            JsonNode expected;
            try {
                expected = text.isBlank() ? null : STRICT.readTree(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                expected = null;
            }
            boolean infinite = text.contains("1e400");
            String before = CliFuzzTest.content(cli);
            Cli.Result r = cli.run("job", "result", job, "--set", text);
            String what = "--set '" + text + "'\n" + r;
            if (expected == null || infinite) {
                assertEquals(64, r.exit(), what);
                assertTrue(r.err().contains(infinite ? "too large for JSON" : "--set needs a JSON value"), what);
                assertEquals(before, CliFuzzTest.content(cli), what);
            } else {
                assertEquals(0, r.exit(), what);
                assertEquals(expected, cli.json("job", "result", job).path("result"), what);
            }
        }
    }

    @Test
    void submitNumbersAndDurationsAreTakenAsTheyMeanOrRefused() throws Exception {
        Random random = new Random(24_503L);
        String[] options = {"--timeout", "--retries", "--priority", "--gpus"};
        String[] near = {"1", "60", "0", "-1", "+5", "2147483647", "2147483648", "-2147483648", "1.5", "1e3", "10s",
            "5m", "", " ", "0x10", "\u0663", "99999999999999999999"};
        for (int i = 0; i < 50; i++) {
            String option = options[random.nextInt(options.length)];
            String value = random.nextBoolean() ? near[random.nextInt(near.length)] : Integer.toString(random.nextInt(2000) - 1000);
            String before = CliFuzzTest.content(cli);
            Cli.Result r = cli.run("job", "submit", "--json", "--no-tick", option, value, "--", "true");
            String what = option + " '" + value + "'\n" + r;
            assertTrue(r.exit() == 0 || r.exit() == 64, what);
            if (r.exit() == 64) {
                assertEquals(before, CliFuzzTest.content(cli), what);
                assertTrue(r.out().contains(option) || r.out().contains("'" + value + "'"), what);
                continue;
            }
            long n = new BigInteger(value.strip().replace("+", "")).longValueExact();
            JsonNode submitted = r.json().path("job");
            switch (option) {
                case "--timeout" -> {
                    assertTrue(n > 0, what);
                    assertEquals(n, submitted.path("timeout_s").asLong(submitted.path("max_runtime_s").asLong()), what);
                }
                case "--retries" -> assertTrue(n >= 0, what);
                case "--gpus" -> assertEquals(n, submitted.path("gpus").asLong(), what);
                default -> assertEquals(n, submitted.path("priority").asLong(), what);
            }
        }
    }
}
