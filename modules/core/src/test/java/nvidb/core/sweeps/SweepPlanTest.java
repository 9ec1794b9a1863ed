package nvidb.core.sweeps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.Sweeps;
import org.junit.jupiter.api.Test;

/** How a sweep's parameters become runs, and every way they are refused before anything is made. */
class SweepPlanTest {
    private static final SubmitRequest JOB = new SubmitRequest(null, "-", null, null, 0, 0, null, null, null, null,
            null, null, null, 0, null, null, null, null);

    private static Sweeps.SweepRequest request(List<String> command, List<String> grid, List<String> zip, Integer random,
                                               Long seed, List<String> ranges, List<String> lines, boolean force) {
        return new Sweeps.SweepRequest(JOB, command, grid, zip, random, seed, ranges, lines, "runs.jsonl", null, force);
    }

    private static SweepPlan plan(Sweeps.SweepRequest r) {
        return SweepPlan.of(r, new CommandTemplate(r.command()));
    }

    private static NvidbException usage(Sweeps.SweepRequest r) {
        NvidbException e = assertThrows(NvidbException.class, () -> plan(r));
        assertEquals(ErrorCode.USAGE, e.code(), e.getMessage());
        return e;
    }

    @Test
    void gridsMakeTheCrossProductTheLastVaryingFastestAndZipsPair() {
        SweepPlan p = plan(request(List.of("train", "--lr", "{lr}", "--bs", "{bs}", "--seed={seed}", "{data}"),
                List.of("lr=1e-3,1e-4", "bs=32,64"), List.of("seed=1,2,3", "data=a,b,c"), null, null, null, null, false));
        assertEquals(List.of("lr", "bs", "seed", "data"), p.names());
        assertEquals(12, p.runs().size());
        assertEquals(Map.of("lr", "1e-3", "bs", "32", "seed", "1", "data", "a"), p.runs().get(0));
        assertEquals(Map.of("lr", "1e-3", "bs", "32", "seed", "2", "data", "b"), p.runs().get(1));
        assertEquals(Map.of("lr", "1e-3", "bs", "64", "seed", "1", "data", "a"), p.runs().get(3));
        assertEquals(Map.of("lr", "1e-4", "bs", "64", "seed", "3", "data", "c"), p.runs().get(11));
        assertEquals("train --lr 1e-3 --bs 32 --seed=1 a", new CommandTemplate(List.of("train", "--lr", "{lr}", "--bs",
                "{bs}", "--seed={seed}", "{data}")).render(p.runs().get(0)));
    }

    @Test
    void theSameSeedDrawsTheSameRunsAndAnotherSeedOthers() {
        List<String> ranges = List.of("lr=loguniform:1e-5:1e-2", "drop=uniform:0:0.5", "bs=choice:32,64,128", "layers=int:2:4");
        List<String> cmd = List.of("x {lr} {drop} {bs} {layers}");
        SweepPlan a = plan(request(cmd, null, null, 20, 7L, ranges, null, false));
        SweepPlan b = plan(request(cmd, null, null, 20, 7L, ranges, null, false));
        SweepPlan c = plan(request(cmd, null, null, 20, 8L, ranges, null, false));
        assertEquals(a.runs(), b.runs());
        assertNotEquals(a.runs(), c.runs());
        assertEquals(7L, ((Map<?, ?>) a.spec().get("random")).get("seed"));
        for (Map<String, String> run : a.runs()) {
            double lr = Double.parseDouble(run.get("lr"));
            double drop = Double.parseDouble(run.get("drop"));
            int layers = Integer.parseInt(run.get("layers"));
            assertTrue(lr >= 1e-5 && lr <= 1e-2 && drop >= 0 && drop <= 0.5 && layers >= 2 && layers <= 4, run.toString());
            assertTrue(List.of("32", "64", "128").contains(run.get("bs")), run.toString());
            assertTrue(!run.get("lr").contains("E"), "plain notation, as the run's command has it: " + run);
        }
        SweepPlan picked = plan(request(cmd, null, null, 3, null, ranges, null, false));
        Object seed = ((Map<?, ?>) picked.spec().get("random")).get("seed");
        assertEquals(picked.runs(), plan(request(cmd, null, null, 3, ((Number) seed).longValue(), ranges, null, false)).runs(),
                "a picked seed is kept, and makes the same runs again");
    }

    @Test
    void aParamsFileIsOneRunALineWithNumbersInPlainNotation() {
        SweepPlan p = plan(request(List.of("run {lr} {name} {deep}"), null, null, null, null, null,
                List.of("{\"lr\": 1e-3, \"name\": \"a b\", \"deep\": true}", "", "{\"deep\": false, \"lr\": 2, \"name\": \"c\"}"),
                false));
        assertEquals(List.of(Map.of("lr", "0.001", "name", "a b", "deep", "true"),
                Map.of("lr", "2", "name", "c", "deep", "false")), p.runs());
        assertTrue(usage(request(List.of("run {lr}"), null, null, null, null, null, List.of("{\"lr\": 1}", "{\"lr\": 1, \"x\": 2}"),
                false)).getMessage().contains("runs.jsonl line 2 names lr, x"));
        assertTrue(usage(request(List.of("run {lr}"), null, null, null, null, null, List.of("{\"lr\": [1]}"), false))
                .getMessage().contains("'lr' is an array"));
        assertTrue(usage(request(List.of("run {lr}"), null, null, null, null, null, List.of("lr=1"), false))
                .getMessage().contains("runs.jsonl line 1 is not JSON"));
    }

    @Test
    void placeholdersAndParametersMustNameEachOtherExactly() {
        String both = usage(request(List.of("train", "--lr", "{lrr}", "--seed", "{seed}"), List.of("lr=1,2", "seed=1"),
                null, null, null, null, null, false)).getMessage();
        assertTrue(both.contains("placeholder {lrr} names no parameter"), both);
        assertTrue(both.contains("parameter lr is used nowhere in the command (write {lr}, or read $NVIDB_PARAM_LR)"),
                both);
        assertTrue(both.contains("the command has {lrr} {seed}; the parameters are lr, seed"), both);
        // {{ is a brace, and a brace that starts no {name} is text: awk needs no escape.
        SweepPlan p = plan(request(List.of("awk '{print $1}' {{lr} {lr}"), List.of("lr=5"), null, null, null, null, null,
                false));
        assertEquals("awk '{print $1}' {lr} 5", new CommandTemplate(List.of("awk '{print $1}' {{lr} {lr}")).render(p.runs().getFirst()));
    }

    @Test
    void aParameterIsUsedByItsVariableAndACommandWithoutPlaceholdersReadsItsEnvironment() {
        List<String> grid = List.of("v=1,2", "w=a");
        // The variable is the safe way to hand a value to a shell: named anywhere, as a whole name.
        assertEquals(2, plan(request(List.of("sh", "-c", "printf '%s\\n' \"$NVIDB_PARAM_V\" {w}"), grid, null, null, null,
                null, null, false)).runs().size());
        assertEquals(2, plan(request(List.of("echo ${NVIDB_PARAM_V} {w}"), grid, null, null, null, null, null, false))
                .runs().size());
        // No placeholder at all: the runs differ by their environment.
        assertEquals(2, plan(request(List.of("sh", "-c", "printf '%s\\n' \"$NVIDB_PARAM_V\""), grid, null, null, null, null,
                null, false)).runs().size());
        assertEquals(2, plan(request(List.of("python train.py"), grid, null, null, null, null, null, false)).runs().size());
        // Another variable's name that begins with this one's is not this one; nor is the lower-case name.
        String refused = usage(request(List.of("echo $NVIDB_PARAM_VV $nvidb_param_v {w}"), grid, null, null, null, null,
                null, false)).getMessage();
        assertTrue(refused.contains("parameter v is used nowhere in the command (write {v}, or read $NVIDB_PARAM_V)"),
                refused);
        // ${v} is the shell's variable v, whatever the parameters: refused, naming what reads the parameter.
        refused = usage(request(List.of("echo ${v} {w}"), grid, null, null, null, null, null, false)).getMessage();
        assertTrue(refused.startsWith("${v} is the shell's variable v, not the parameter (write {v} for its value, or"
                + " $NVIDB_PARAM_V) (the command has {w}"), refused);
        // A placeholder naming no parameter is refused, even beside the variables.
        refused = usage(request(List.of("echo $NVIDB_PARAM_V $NVIDB_PARAM_W {x}"), grid, null, null, null, null, null,
                false)).getMessage();
        assertTrue(refused.contains("placeholder {x} names no parameter (the command has {x}"), refused);
    }

    @Test
    void badParametersAreRefusedNamingWhatWouldBeRight() {
        List<String> cmd = List.of("x {a} {b}");
        assertTrue(usage(request(cmd, null, List.of("a=1,2", "b=1,2,3"), null, null, null, null, false)).getMessage()
                .contains("a has 2, b has 3"));
        assertTrue(usage(request(cmd, List.of("a=1", "A=2"), null, null, null, null, null, false)).getMessage()
                .contains("both would be $NVIDB_PARAM_A"));
        assertTrue(usage(request(cmd, List.of("a=1,,2", "b=1"), null, null, null, null, null, false)).getMessage()
                .contains("empty value"));
        assertTrue(usage(request(List.of("x {a}"), List.of("1a=1"), null, null, null, null, null, false)).getMessage()
                .contains("not a name"));
        assertTrue(usage(request(cmd, null, null, 3, null, List.of("a=normal:0:1", "b=uniform:0:1"), null, false))
                .getMessage().contains("unknown kind 'normal'"));
        assertTrue(usage(request(cmd, null, null, 3, null, List.of("a=loguniform:0:1", "b=uniform:0:1"), null, false))
                .getMessage().contains("positive bounds"));
        assertTrue(usage(request(cmd, null, null, null, 3L, List.of("a=uniform:0:1"), null, false)).getMessage()
                .contains("go with --random N"));
        assertTrue(usage(request(List.of("x"), null, null, null, null, null, null, false)).getMessage()
                .contains("a sweep needs parameters"));
    }

    @Test
    void moreThanTenThousandRunsNeedForce() {
        String hundred = "a=" + String.join(",", java.util.stream.IntStream.range(0, 100).mapToObj(String::valueOf).toList());
        String many = "b=" + String.join(",", java.util.stream.IntStream.range(0, 101).mapToObj(String::valueOf).toList());
        List<String> cmd = List.of("x {a} {b}");
        String refused = usage(request(cmd, List.of(hundred, many), null, null, null, null, null, false)).getMessage();
        assertTrue(refused.contains("more than 10000 runs (100 x 101)") && refused.contains("--force"), refused);
        assertEquals(10100, plan(request(cmd, List.of(hundred, many), null, null, null, null, null, true)).runs().size());
    }
}
