package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.cli.startup.CommandLines;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every read command takes the same read options, {@code --tick} and {@code --no-tick}, so an
 * agent that passes {@code --no-tick} to every read is never refused; and {@code --no-tick} reads
 * the database only: a whole round of reads with it runs no scheduler pass.
 */
class ReadOptionsTest {
    /** A read command with the arguments it needs against the queue {@link #queue} makes, and how it exits there. */
    private record Read(int exit, String... words) {
    }

    private static final List<Read> READS = List.of(
            new Read(0, "queue", "status"), new Read(0, "queue", "nodes"), new Read(0, "queue", "lanes"),
            new Read(0, "queue", "lane", "box:0"),
            new Read(1, "queue", "lane", "box:0", "runner"), // 1: the lane's runner is enabled but not up
            new Read(0, "queue", "alerts"), new Read(0, "queue", "events"), new Read(0, "queue", "history"),
            new Read(0, "queue", "usage"),
            new Read(0, "job", "ls"), new Read(0, "job", "show", "1"), new Read(0, "job", "logs", "1"),
            new Read(0, "job", "wait", "1"), new Read(0, "job", "result", "1"),
            new Read(0, "sweep", "ls"), new Read(0, "sweep", "show", "1"), new Read(0, "sweep", "export", "1", "--csv"),
            new Read(0, "sweep", "wait", "1"));

    @TempDir
    Path tmp;

    @AfterEach
    void tearDown() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
    }

    /** The command's path: the words that name subcommands ({@code queue lane L runner} is {@code queue lane runner}). */
    private static String path(CommandLine root, String... words) {
        CommandLine cmd = root;
        for (String w : words) {
            cmd = cmd.getSubcommands().getOrDefault(w, cmd);
        }
        return cmd.getCommandSpec().qualifiedName(" ").replaceFirst("^nvidb ", "");
    }

    @Test
    void everyReadCommandHasBothOptionsAndEveryCommandWithThemIsARead() {
        CommandLine root = Nvidb.tree(new CliContext(Map.of(), new Output(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()))), new String[0], CommandLines.fromModel());
        Set<String> reads = new TreeSet<>();
        READS.forEach(r -> reads.add(path(root, r.words())));
        Set<String> withTick = new TreeSet<>();
        List<CommandLine> all = new ArrayList<>(List.of(root));
        for (int i = 0; i < all.size(); i++) {
            CommandLine c = all.get(i);
            all.addAll(c.getSubcommands().values());
            boolean tick = c.getCommandSpec().findOption("--tick") != null;
            boolean noTick = c.getCommandSpec().findOption("--no-tick") != null;
            String name = c.getCommandSpec().qualifiedName(" ").replaceFirst("^nvidb ", "");
            if (tick) {
                withTick.add(name);
            }
            if (reads.contains(name)) {
                assertTrue(tick && noTick, name + " is a read command: it takes --tick and --no-tick (TickOptions)");
            }
        }
        withTick.removeAll(reads);
        assertEquals(Set.of(), withTick, "commands with the read options that this test does not run: add them to READS");
    }

    /** A queue with one node (two fake GPUs), a completed job 1 and a completed sweep 1 of two runs. */
    private Cli queue(FakeNvidiaSmi box) throws Exception {
        Cli cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:reads");
        // Every read that may refresh would: no rate limit.
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0\n  lane_spool_root: " + tmp.resolve("spool")
                + "\nservers:\n  - nickname: box\n    transport: local\n    nvidia_smi: " + box.command()
                + "\n    job_root: " + tmp.resolve("jobs") + "\n");
        cli.json("job", "submit", "--gpus", "0", "--wait", "--timeout", "60", "--", "echo", "hello");
        cli.json("job", "sweep", "--gpus", "0", "--grid", "i=1,2", "--", "echo", "{i}");
        cli.json("sweep", "wait", "1", "--timeout", "60");
        return cli;
    }

    @Test
    void everyReadCommandTakesNoTickAndThenContactsNoNode() throws Exception {
        FakeNvidiaSmi box = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        Cli cli = queue(box);
        box.resetCalls();
        List<String> failures = new ArrayList<>();
        for (Read read : READS) {
            List<String> args = new ArrayList<>(List.of(read.words()));
            args.add("--no-tick");
            boolean csv = args.contains("--csv");
            if (!csv) {
                args.add("--json");
            }
            Cli.Result r = cli.run(args.toArray(String[]::new));
            if (r.exit() != read.exit()) {
                failures.add(args + " exited " + r.exit() + ", not " + read.exit() + ": " + r.err().strip());
            } else if (csv) {
                assertTrue(r.out().startsWith("index,job_id,name,i,"), r.toString());
            } else {
                assertTrue(r.json().isObject(), args + ": " + r);
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(0, box.calls(), "a read with --no-tick probed the node: " + box.callArguments());
        // --tick asks even a read that contacts no node by default (the event log) for a pass first.
        cli.json("queue", "events");
        assertEquals(0, box.calls(), "queue events contacts no node unless asked");
        cli.json("queue", "events", "--tick");
        assertTrue(box.calls() > 0, "queue events --tick ran a pass, which probes the node");
    }
}
