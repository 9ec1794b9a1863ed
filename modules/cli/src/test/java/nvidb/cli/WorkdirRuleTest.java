package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a job runs, one rule for a pool job (launched by a pass) and a lane job (started by the
 * lane runner): {@code --workdir}; else the directory the submit was made from, when it exists on
 * the node; else {@code $HOME}. Submits are real {@code nvidb} processes started from a directory
 * (the working directory is what a shell's {@code cd} gives them); jobs run for real on a node
 * reached through the local transport, each recording {@code pwd -P} and its {@code $HOME}.
 */
class WorkdirRuleTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path submitDir;
    Path out;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "test:workdir");
        FakeNvidiaSmi box = FakeNvidiaSmi.install("box", tmp.resolve("box/bin"), tmp.resolve("box/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564);
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  lane_poll_interval: 1\n  lane_idle_exit: 20\n"
                + "  lane_spool_root: " + tmp.resolve("spool") + "\nservers:\n  - nickname: box\n    transport: local\n"
                + "    nvidia_smi: " + box.command() + "\n    job_root: " + tmp.resolve("jobs") + "\n");
        submitDir = Files.createDirectories(tmp.resolve("project 'x'"));
        out = Files.createDirectories(tmp.resolve("out"));
    }

    @AfterEach
    void tearDown() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("jobs"));
    }

    @Test
    void poolAndLaneJobsRunInTheDirectoryTheSubmitWasMadeFrom() throws Exception {
        long pool = submitFrom(submitDir, "pool", "--gpus", "0");
        long lane = submitFrom(submitDir, "lane", "--lane", "box:0", "--vram", "1G");
        settle(pool, lane);
        assertEquals(submitDir.toRealPath().toString(), ranIn("pool"));
        assertEquals(submitDir.toRealPath().toString(), ranIn("lane"), "the lane runner's spool is not the job's directory");
        JsonNode shown = cli.json("job", "show", String.valueOf(lane), "--no-tick");
        assertEquals(submitDir.toAbsolutePath().toString(), shown.path("env").path("NVIDB_SUBMIT_DIR").asText(), shown.toString());
    }

    @Test
    void aSubmitDirectoryMissingOnTheNodeFallsBackToHomeForBoth() throws Exception {
        Path gone = Files.createDirectories(tmp.resolve("gone"));
        long pool = submitFrom(gone, "pool", "--gpus", "0");
        long lane = submitFrom(gone, "lane", "--lane", "box:0", "--vram", "1G");
        Files.delete(gone);
        settle(pool, lane);
        for (String name : List.of("pool", "lane")) {
            String home = Files.readString(out.resolve(name + ".home")).strip();
            assertEquals(Path.of(home).toRealPath().toString(), ranIn(name), name);
        }
    }

    @Test
    void anExplicitWorkdirWinsOverTheSubmitDirectory() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        long lane = submitFrom(submitDir, "lane", "--lane", "box:0", "--vram", "1G", "--workdir", elsewhere.toString());
        settle(lane);
        assertEquals(elsewhere.toRealPath().toString(), ranIn("lane"));
    }

    @Test
    void aStalePwdIsReplacedByTheRealWorkingDirectoryAndASameDirectoryPwdStays() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), submitDir);
        assertEquals(submitDir.toString(), Main.withWorkingDirectory(Map.of("PWD", tmp.toString()), submitDir).get("PWD"));
        assertEquals(submitDir.toString(), Main.withWorkingDirectory(Map.of(), submitDir).get("PWD"));
        assertEquals(link.toString(), Main.withWorkingDirectory(Map.of("PWD", link.toString()), submitDir).get("PWD"));
    }

    /** Submits, from {@code dir}, a job that records where it ran and its {@code $HOME}. */
    private long submitFrom(Path dir, String name, String... options) throws Exception {
        String command = "pwd -P > " + Cli.q(out.resolve(name + ".pwd").toString()) + "; printf '%s' \"$HOME\" > "
                + Cli.q(out.resolve(name + ".home").toString());
        StringBuilder script = new StringBuilder("cd " + Cli.q(dir.toString()) + " && nvidb job submit --json --no-tick -n "
                + name);
        for (String option : options) {
            script.append(' ').append(Cli.q(option));
        }
        script.append(" -- ").append(Cli.q(command));
        Cli.Result r = cli.runShell(script.toString(), 60);
        assertEquals(0, r.exit(), r.toString());
        return r.json().path("job").path("id").asLong();
    }

    private void settle(long... ids) {
        String[] args = new String[ids.length + 4];
        args[0] = "job";
        args[1] = "wait";
        args[2] = "--timeout";
        args[3] = "60";
        for (int i = 0; i < ids.length; i++) {
            args[i + 4] = String.valueOf(ids[i]);
        }
        Cli.Result r = cli.run(args);
        assertEquals(0, r.exit(), r.toString());
    }

    private String ranIn(String name) throws Exception {
        Path pwd = out.resolve(name + ".pwd");
        assertTrue(Files.exists(pwd), name + " never ran");
        return Files.readString(pwd).strip();
    }
}
