package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} counts the running jobs whose GPUs have sat idle for {@code queue.idle_after}. */
class WebIdleMetricsTest {
    @TempDir
    Path tmp;
    WebFixture web;

    @AfterEach
    void stop() throws Exception {
        if (web != null) {
            web.close();
        }
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("alpha-jobs"));
    }

    @Test
    void anIdleJobIsCountedAndABusyOneIsNot() throws Exception {
        web = new WebFixture(tmp).queueSettings("  idle_after: 1\n").start("127.0.0.1:0", false);
        web.alpha.utilization(0, 0).utilization(1, 0);
        long id = web.submit("--no-tick", "--node", "alpha", "--", web.alpha.allocateSnippet(1, 2048) + "; exec sleep 60");
        LocalJobsTest.waitUntil(() -> {
            web.cli.json("queue", "tick");
            return web.get("/metrics").body().contains("\nnvidb_jobs_idle 1\n");
        }, 60, () -> web.cli.json("job", "show", String.valueOf(id), "--no-tick").toString());
        assertTrue(web.get("/metrics").body().contains("# TYPE nvidb_jobs_idle gauge"));
        // Busy again: the next look clears its idle time, and it is no longer counted.
        web.alpha.utilization(0, 90).utilization(1, 90);
        LocalJobsTest.waitUntil(() -> {
            web.cli.json("queue", "tick");
            return web.get("/metrics").body().contains("\nnvidb_jobs_idle 0\n");
        }, 60);
        web.cli.json("job", "cancel", String.valueOf(id));
    }
}
