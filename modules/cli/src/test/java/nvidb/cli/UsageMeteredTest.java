package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import nvidb.core.api.Times;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue usage} from what the passes measured: a real job on the local node holds memory on
 * a fake nvidia-smi that reports 300 W and an idle GPU; the passes meter it, and the figures
 * agree with each other exactly where the rule says they must.
 */
class UsageMeteredTest {
    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi alpha;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).utilization(0, 0).power(0, 300.0);
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.2\n  lane_spool_root: " + tmp.resolve("spool")
                + "\nservers:\n  - nickname: alpha\n    transport: local\n    nvidia_smi: " + alpha.command()
                + "\n    job_root: " + tmp.resolve("alpha-jobs") + "\n");
    }

    @AfterEach
    void stopJobs() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("alpha-jobs"));
    }

    private JsonNode tickUntil(long id, java.util.function.Predicate<JsonNode> check) throws Exception {
        JsonNode[] last = {null};
        LocalJobsTest.waitUntil(() -> {
            cli.run("queue", "tick");
            last[0] = cli.json("job", "show", String.valueOf(id), "--no-tick");
            return check.test(last[0]);
        }, 90, () -> String.valueOf(last[0]));
        return last[0];
    }

    @Test
    void anIdleJobAt300WattsDrawsItsIdleGpuHoursTimes300Watts() throws Exception {
        Path gate = tmp.resolve("gate");
        long id = cli.json("job", "submit", "--no-tick", "--name", "metered", "--vram", "8G", "--",
                alpha.allocateSnippet(0, 6144) + "; until [ -e '" + gate + "' ]; do sleep 0.1; done")
                .path("job").path("id").asLong();
        tickUntil(id, s -> s.path("peak_vram_mb").asInt() == 6144);
        // More looks, each metering the time since the one before, until the run spans seconds (times
        // are stored to the second: a run inside one second would meter nothing).
        tickUntil(id, s -> s.path("elapsed_s").asDouble() >= 3);
        Files.writeString(gate, "");
        JsonNode done = tickUntil(id, s -> s.path("state").asText().equals("completed"));
        long ranS = Times.parse(done.path("finished_at").asText()).getEpochSecond()
                - Times.parse(done.path("started_at").asText()).getEpochSecond();

        JsonNode doc = cli.json("queue", "usage", "--no-tick", "--since", "all", "--by", "node");
        assertEquals(1, doc.path("rows").size(), doc.toString());
        JsonNode row = doc.path("rows").path(0);
        assertEquals("alpha", row.path("key").asText());
        double gpuHours = row.path("gpu_hours").asDouble();
        assertEquals(Math.round(ranS / 3600.0 * 1e6) / 1e6, gpuHours, doc.toString());
        assertEquals(Math.round(8.0 * ranS / 3600.0 * 1e6) / 1e6, row.path("vram_gib_hours_reserved").asDouble(), doc.toString());
        assertEquals(Math.round(6.0 * ranS / 3600.0 * 1e6) / 1e6, row.path("vram_gib_hours_peak").asDouble(), doc.toString());
        // Every look saw the GPU idle at 300 W, all of it the job's: joules = 300 × idle GPU-seconds.
        double idle = row.path("idle_gpu_hours").asDouble();
        assertTrue(idle > 0 && idle <= gpuHours + 1e-6, "the looks cover part of the run: " + doc);
        assertEquals(idle * 0.3, row.path("energy_kwh").asDouble(), 2e-6, doc.toString());
        assertEquals(row.toString().replace("\"key\":\"alpha\"", "\"key\":null"), doc.path("total").toString());
    }
}
