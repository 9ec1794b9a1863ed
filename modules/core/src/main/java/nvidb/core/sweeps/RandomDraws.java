package nvidb.core.sweeps;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sweeps;

/**
 * {@code --random N --seed S --range NAME=KIND:…}: N draws, each range in the order given.
 * {@link Random} is the generator because its algorithm is fixed by the JDK's specification:
 * the same seed gives the same runs on every JDK. Drawn numbers keep six significant digits, so a
 * run's command and its {@code sweep show} row say exactly the value the run got.
 */
final class RandomDraws {
    private static final MathContext DIGITS = new MathContext(6);
    private static final String KINDS = "uniform:A:B, loguniform:A:B, int:A:B or choice:X,Y,…";

    private record Range(String name, String kind, double low, double high, List<String> choices, String text) {
    }

    private final int count;
    private final long seed;
    private final List<Range> ranges;
    private final Random random;

    private RandomDraws(int count, long seed, List<Range> ranges) {
        this.count = count;
        this.seed = seed;
        this.ranges = ranges;
        this.random = new Random(seed);
    }

    static RandomDraws of(Integer count, Long seed, List<String> ranges, boolean force) {
        if (count == null) {
            throw NvidbException.usage("--range and --seed go with --random N (how many runs to draw)");
        }
        if (count < 1) {
            throw NvidbException.usage("--random takes how many runs to draw (at least 1), not " + count);
        }
        if (count > Sweeps.MAX_RUNS && !force) {
            throw NvidbException.usage("--random " + count + " would make more than " + Sweeps.MAX_RUNS
                    + " runs; pass --force to submit it anyway");
        }
        if (ranges.isEmpty()) {
            throw NvidbException.usage("--random needs at least one --range NAME=" + KINDS);
        }
        List<Range> parsed = new ArrayList<>();
        for (String r : ranges) {
            parsed.add(parse(r));
        }
        // No seed given: one is picked, and kept with the sweep, so that its runs can be made again.
        return new RandomDraws(count, seed != null ? seed : new Random().nextLong() & 0xFFFFFFFFL, parsed);
    }

    int count() {
        return count;
    }

    List<String> names() {
        return ranges.stream().map(Range::name).toList();
    }

    Map<String, Object> spec() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("count", count);
        spec.put("seed", seed);
        Map<String, String> r = new LinkedHashMap<>();
        ranges.forEach(x -> r.put(x.name(), x.text()));
        spec.put("ranges", r);
        return spec;
    }

    Map<String, String> draw() {
        Map<String, String> run = new LinkedHashMap<>();
        for (Range r : ranges) {
            run.put(r.name(), value(r));
        }
        return run;
    }

    private String value(Range r) {
        // Not a switch on strings: each kind is a plain comparison (no class spun at run time).
        if (r.kind().equals("choice")) {
            return r.choices().get(random.nextInt(r.choices().size()));
        }
        if (r.kind().equals("int")) {
            return String.valueOf((long) r.low() + (long) Math.floor(random.nextDouble() * (r.high() - r.low() + 1)));
        }
        double u = random.nextDouble();
        double x = r.kind().equals("uniform") ? r.low() + u * (r.high() - r.low())
                : Math.exp(Math.log(r.low()) + u * (Math.log(r.high()) - Math.log(r.low())));
        return new BigDecimal(x).round(DIGITS).stripTrailingZeros().toPlainString();
    }

    private static Range parse(String text) {
        int eq = text.indexOf('=');
        int colon = text.indexOf(':', eq + 1);
        if (eq <= 0 || colon < 0) {
            throw NvidbException.usage("--range takes NAME=" + KINDS + ", got '" + text + "'");
        }
        String name = text.substring(0, eq).strip();
        String kind = text.substring(eq + 1, colon).strip();
        String args = text.substring(colon + 1);
        String what = "--range " + name + "=" + kind + ":" + args;
        if (kind.equals("choice")) {
            List<String> choices = List.of(args.split(",", -1));
            if (choices.stream().anyMatch(String::isEmpty)) {
                throw NvidbException.usage(what + ": choice takes X,Y,… with no empty value");
            }
            return new Range(name, kind, 0, 0, choices, kind + ":" + args);
        }
        if (!kind.equals("uniform") && !kind.equals("loguniform") && !kind.equals("int")) {
            throw NvidbException.usage(what + ": unknown kind '" + kind + "'; use " + KINDS);
        }
        String[] bounds = args.split(":", -1);
        if (bounds.length != 2) {
            throw NvidbException.usage(what + ": " + kind + " takes two bounds, " + kind + ":A:B");
        }
        double low = number(what, bounds[0]);
        double high = number(what, bounds[1]);
        if (!(low < high)) {
            throw NvidbException.usage(what + ": the lower bound must be below the upper one");
        }
        if (kind.equals("loguniform") && low <= 0) {
            throw NvidbException.usage(what + ": loguniform needs positive bounds");
        }
        if (kind.equals("int") && (low != Math.rint(low) || high != Math.rint(high))) {
            throw NvidbException.usage(what + ": int takes whole-number bounds");
        }
        return new Range(name, kind, low, high, List.of(), kind + ":" + args);
    }

    private static double number(String what, String text) {
        try {
            double d = Double.parseDouble(text.strip());
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw NvidbException.usage(what + ": '" + text + "' is not a number");
    }
}
