package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VRAM the queue learns, end to end: real jobs on the local node hold memory on a fake nvidia-smi
 * (testkit), the passes measure them, and {@code --vram auto} sizes the next run of the family.
 */
class LearnedVramTest {
    /** Two 24 GiB cards less 512 MiB headroom: what a whole GPU holds. */
    private static final long WHOLE_GPU = 24564 - 512;

    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi alpha;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        config("");
    }

    @AfterEach
    void stopJobs() throws Exception {
        LaneRunnerScenarios.stopRunnersAndJobs(tmp.resolve("spool"), tmp.resolve("alpha-jobs"));
    }

    private void config(String extraQueue) throws Exception {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.2\n  headroom_mb: 512\n  lane_spool_root: "
                + tmp.resolve("spool") + "\n" + extraQueue + "servers:\n  - nickname: alpha\n    transport: local\n"
                + "    nvidia_smi: " + alpha.command() + "\n    job_root: " + tmp.resolve("alpha-jobs") + "\n");
    }

    private long submit(String... args) {
        List<String> all = new ArrayList<>(List.of("job", "submit", "--no-tick"));
        all.addAll(List.of(args));
        return cli.json(all.toArray(String[]::new)).path("job").path("id").asLong();
    }

    private JsonNode show(long id) {
        return cli.json("job", "show", String.valueOf(id), "--no-tick");
    }

    /** Passes until {@code check} holds for the job (a generous deadline: CI is a loaded 2-core machine). */
    private JsonNode tickUntil(long id, java.util.function.Predicate<JsonNode> check) throws Exception {
        JsonNode[] last = {null};
        LocalJobsTest.waitUntil(() -> {
            cli.run("queue", "tick");
            last[0] = show(id);
            return check.test(last[0]);
        }, 90, () -> String.valueOf(last[0]));
        return last[0];
    }

    /** A job that holds {@code mb} on GPU 0 until {@code gate} exists. */
    private String holds(int mb, Path gate) {
        return alpha.allocateSnippet(0, mb) + "; until [ -e '" + gate + "' ]; do sleep 0.1; done";
    }

    private List<JsonNode> alerts(long job, String kind) {
        List<JsonNode> out = new ArrayList<>();
        // queue alerts exits 1 while alerts are open: its document is read either way.
        for (JsonNode a : cli.run("queue", "alerts", "--all", "--no-tick", "--json").json().path("alerts")) {
            if (a.path("job_id").asLong() == job && a.path("kind").asText().equals(kind)) {
                out.add(a);
            }
        }
        return out;
    }

    private List<JsonNode> events(long job, String kind) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : show(job).path("events")) {
            if (e.path("kind").asText().equals(kind)) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void threeMeasuredRunsTeachTheFourthItsReservation() throws Exception {
        int[] peaks = {6000, 8000, 7000};
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < peaks.length; i++) {
            ids.add(submit("--name", "trainer-" + (i + 1), "--vram", "1G", "--", holds(peaks[i], tmp.resolve("gate" + i))));
        }
        for (int i = 0; i < peaks.length; i++) {
            int peak = peaks[i];
            JsonNode j = tickUntil(ids.get(i), s -> s.path("peak_vram_mb").asInt() == peak);
            assertEquals("explicit", j.path("vram_source").path("kind").asText());
            Files.writeString(tmp.resolve("gate" + i), "");
        }
        for (long id : ids) {
            tickUntil(id, s -> s.path("state").asText().equals("completed"));
        }
        // The 95th percentile of 6000, 8000 and 7000 MiB is 8000; plus 15 % is 9200, rounded up to 9216.
        JsonNode dry = cli.json("job", "submit", "--dry-run", "--vram", "auto", "--name", "trainer-4", "--", "python train.py");
        assertEquals(9216, dry.path("vram_mb").asLong(), dry.toString());
        assertEquals("learned", dry.path("vram_source").path("kind").asText());
        assertEquals(ids.toString().replace(" ", ""), dry.path("vram_source").path("jobs").toString());
        assertEquals(8000, dry.path("vram_source").path("peak_mb").asInt());
        assertEquals(3, cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs").size(), "a dry run queues nothing");
        String human = cli.run("job", "submit", "--dry-run", "--vram", "auto", "--name", "trainer-9", "--", "true").out();
        assertTrue(human.contains("would reserve 9.0G per GPU (learned from jobs " + ids.get(0) + ", " + ids.get(1) + ", "
                + ids.get(2) + ": 95th-percentile peak"), human);

        long fourth = submit("--vram", "auto", "--name", "trainer-4", "--", "true");
        assertEquals(9216, show(fourth).path("vram_mb").asLong());
        assertEquals("learned", show(fourth).path("vram_source").path("kind").asText());
        // An explicit --vram is never changed, whatever the family learned.
        long fixed = submit("--vram", "2G", "--name", "trainer-5", "--", "true");
        tickUntil(fixed, s -> s.path("state").asText().equals("completed"));
        assertEquals(2048, show(fixed).path("vram_mb").asLong());
        assertEquals("explicit", show(fixed).path("vram_source").path("kind").asText());
        // job show says it in words; job ls carries the measured figures.
        String shown = cli.run("job", "show", String.valueOf(ids.get(1)), "--no-tick").out();
        assertTrue(shown.contains("peak 7.8G"), shown);
        JsonNode listed = cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs");
        assertTrue(listed.toString().contains("\"peak_vram_mb\":8000"), listed.toString());
    }

    @Test
    void aFirstRunReservesAWholeGpuSoItNeverSharesACardByAccident() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(submit("--vram", "auto", "--name", "fresh", "--", "sleep 60"));
        }
        cli.run("queue", "tick");
        LocalJobsTest.waitUntil(() -> {
            cli.run("queue", "tick");
            return ids.stream().filter(id -> show(id).path("state").asText().equals("running")).count() == 2;
        }, 60);
        for (long id : ids) {
            JsonNode j = show(id);
            assertEquals(WHOLE_GPU, j.path("vram_mb").asLong(), j.toString());
            assertEquals("first_run", j.path("vram_source").path("kind").asText());
        }
        List<String> states = ids.stream().map(id -> show(id).path("state").asText()).sorted().toList();
        assertEquals(List.of("pending", "running", "running"), states, "two cards, two first runs; the third waits");
        assertTrue(!show(ids.get(0)).path("gpu_ids").equals(show(ids.get(1)).path("gpu_ids"))
                || !show(ids.get(0)).path("state").asText().equals("running"));
        cli.run("job", "cancel", ids.get(0) + "," + ids.get(1) + "," + ids.get(2));

        config("  auto_vram_first: 10G\n  default_vram: auto\n");
        JsonNode dry = cli.json("job", "submit", "--dry-run", "--name", "other", "--", "true");
        assertEquals(10240, dry.path("vram_mb").asLong(), "queue.default_vram: auto sizes a job without --vram");
        assertEquals("first_run", dry.path("vram_source").path("kind").asText());
    }

    @Test
    void aSweepsLaterRunsLearnFromItsEarlierOnes() throws Exception {
        // An unnamed sweep: its runs (sweep<ID>-<i>) have no name family, so they learn from their sweep.
        JsonNode made = cli.json("job", "sweep", "--vram", "auto", "--max-parallel", "1", "--no-tick", "--grid", "i=0,1,2",
                "--", holds(5000, tmp.resolve("sweep-gate")) + " # {i}");
        List<Long> runs = new ArrayList<>();
        made.path("runs").forEach(r -> runs.add(r.path("job_id").asLong()));
        assertEquals(3, runs.size(), made.toString());
        JsonNode first = tickUntil(runs.getFirst(), s -> s.path("peak_vram_mb").asInt() == 5000);
        assertEquals("first_run", first.path("vram_source").path("kind").asText());
        assertEquals(WHOLE_GPU, first.path("vram_mb").asLong());
        Files.writeString(tmp.resolve("sweep-gate"), "");
        tickUntil(runs.getFirst(), s -> s.path("state").asText().equals("completed"));
        // 5000 MiB plus 15 % is 5750, rounded up to 5888: the waiting runs are sized again before they start.
        for (long later : runs.subList(1, 3)) {
            JsonNode j = tickUntil(later, s -> s.path("vram_source").path("kind").asText().equals("learned"));
            assertEquals(5888, j.path("vram_mb").asLong(), j.toString());
            assertEquals("[" + runs.getFirst() + "]", j.path("vram_source").path("jobs").toString());
        }
        String table = cli.run("sweep", "show", made.path("sweep").path("id").asText(), "--no-tick").out();
        assertTrue(table.contains("PEAK") && table.contains("4.9G"), table);
    }

    @Test
    void outOfMemoryIsRetriedBiggerAndSucceeds() throws Exception {
        Path once = tmp.resolve("failed-once");
        long id = submit("--vram", "4G", "--", "if [ ! -e '" + once + "' ]; then : > '" + once + "'; "
                + "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.' >&2; exit 1; fi; echo ok");
        JsonNode done = tickUntil(id, s -> s.path("state").asText().equals("completed"));
        assertEquals(6144, done.path("vram_mb").asLong(), "4G × 1.5, with no peak measured");
        assertEquals("oom_retry", done.path("vram_source").path("kind").asText());
        assertEquals(4096, done.path("vram_source").path("from_mb").asLong());
        assertEquals(0, done.path("max_retries").asInt(), "--retries is not spent");
        JsonNode requeued = events(id, "job_requeued").getFirst();
        assertTrue(requeued.path("message").asText().contains("requeued with 6.0G (was 4.0G)"), requeued.toString());
        assertEquals(1, alerts(id, "job_retried").size());
        assertEquals(0, alerts(id, "job_oom").size() + alerts(id, "job_failed").size());
    }

    @Test
    void anOutOfMemoryRetryIsCappedAtTheLargestGpuThenFails() throws Exception {
        long id = submit("--vram", "20G", "--oom-retry", "3", "--",
                "echo 'RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`' >&2; exit 1");
        JsonNode failed = tickUntil(id, s -> s.path("state").asText().equals("failed"));
        assertEquals("oom", failed.path("failure").asText());
        assertEquals(WHOLE_GPU, failed.path("vram_mb").asLong(), "raised once, to what the largest card holds");
        List<JsonNode> oom = alerts(id, "job_oom");
        assertEquals(1, oom.size());
        assertTrue(oom.getFirst().path("title").asText().contains("no GPU could hold more"), oom.toString());
        assertEquals(0, alerts(id, "job_failed").size(), "job_oom instead of job_failed");
    }

    @Test
    void withoutRetriesItFailsAsOomAndTheOomKillerIsNotAGpuOom() throws Exception {
        long oom = submit("--vram", "1G", "--oom-retry", "0", "--",
                "echo 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.' >&2; exit 1");
        JsonNode failed = tickUntil(oom, s -> s.path("state").asText().equals("failed"));
        assertEquals("oom", failed.path("failure").asText());
        assertEquals(1, alerts(oom, "job_oom").size());
        assertTrue(alerts(oom, "job_oom").getFirst().path("detail").asText().contains("RESOURCE_EXHAUSTED"));

        long killed = submit("--vram", "1G", "--", "echo 'about to be killed' >&2; kill -9 $$");
        JsonNode k = tickUntil(killed, s -> s.path("state").asText().equals("failed"));
        assertEquals(137, k.path("exit_code").asInt(), k.toString());
        assertEquals("killed", k.path("failure").asText());
        assertEquals(0, alerts(killed, "job_oom").size());
        assertEquals(1, alerts(killed, "job_failed").size());

        long plain = submit("--vram", "1G", "--", "echo 'ValueError: loss is nan' >&2; exit 2");
        JsonNode p = tickUntil(plain, s -> s.path("state").asText().equals("failed"));
        assertTrue(p.path("failure").isNull(), p.toString());
    }

    @Test
    void overrunAndIdleAreEachToldOnce() throws Exception {
        config("  idle_after: 1\n  idle_util: 2\n");
        alpha.utilization(0, 0).utilization(1, 0);
        Path gate = tmp.resolve("gate");
        long id = submit("--vram", "1G", "--", holds(4096, gate));
        tickUntil(id, s -> !alerts(id, "job_idle").isEmpty());
        cli.run("queue", "tick");
        cli.run("queue", "tick");
        JsonNode j = show(id);
        assertEquals(4096, j.path("peak_vram_mb").asInt());
        assertEquals(0.0, j.path("mean_util_percent").asDouble());
        assertEquals(1, events(id, "job_overrun").size(), "one event, however many passes see it");
        assertEquals(1, alerts(id, "job_overrun").size());
        assertTrue(alerts(id, "job_overrun").getFirst().path("title").asText().contains("uses 4.0G of GPU memory on one GPU; it reserved 1.0G"));
        assertEquals(1, alerts(id, "job_idle").size());
        assertEquals(1, events(id, "job_idle").size());
        Files.writeString(gate, "");
        tickUntil(id, s -> s.path("state").asText().equals("completed"));

        config("  overrun_alert: false\n");
        Path gate2 = tmp.resolve("gate2");
        long quiet = submit("--vram", "1G", "--", holds(4096, gate2));
        tickUntil(quiet, s -> s.path("peak_vram_mb").asInt() == 4096);
        cli.run("queue", "tick");
        assertEquals(1, events(quiet, "job_overrun").size(), "still recorded as an event");
        assertEquals(0, alerts(quiet, "job_overrun").size(), "queue.overrun_alert: false raises no alert");
        Files.writeString(gate2, "");
    }

    @Test
    void badSettingsAndValuesAreRefusedSayingWhatIsRight() throws Exception {
        Cli.Result bad = cli.run("job", "submit", "--vram", "lots", "--", "true");
        assertEquals(64, bad.exit(), bad.toString());
        Cli.Result retry = cli.run("job", "submit", "--oom-retry", "-1", "--", "true");
        assertEquals(64, retry.exit(), retry.toString());
        assertTrue(retry.err().contains("--oom-retry cannot be negative"), retry.toString());
        config("  overrun_margin: lots\n");
        Cli.Result margin = cli.run("job", "ls");
        assertEquals(64, margin.exit(), margin.toString());
        assertTrue(margin.err().contains("overrun_margin") && margin.err().contains("percentage"), margin.toString());
        config("  auto_vram_first: half\n");
        Cli.Result first = cli.run("job", "ls");
        assertTrue(first.err().contains("must be gpu (a whole GPU) or a size"), first.toString());
        config("  default_vram: sometimes\n");
        Cli.Result dflt = cli.run("job", "ls");
        assertTrue(dflt.err().contains("or auto"), dflt.toString());
        config("");
        assertEquals(0, cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs").size(),
                "nothing was queued by a refused command");
    }
}
