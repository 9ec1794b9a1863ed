package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Times;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab of several people on one queue, end to end on the local node with a fake nvidia-smi:
 * {@code queue.users} quotas hold jobs with their reason and refuse submits beyond
 * {@code max_pending}; fair share starts a light user's job before a heavy user's older backlog.
 * Jobs of other accounts are this process's submits whose recorded {@code user} is then set in the
 * real database, as that account's own submit would have left it (real accounts: SharedQueueIT).
 */
class LabTest {
    @TempDir
    Path tmp;
    Cli cli;
    FakeNvidiaSmi alpha;
    String me;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
        config("");
        me = nvidb.core.api.Caller.osAccount(); // the account of this process, as every submit here records it
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

    private String waitFor(Path gate) {
        return "until [ -e '" + gate + "' ]; do sleep 0.1; done";
    }

    private JsonNode tickUntil(long id, java.util.function.Predicate<JsonNode> check) throws Exception {
        JsonNode[] last = {null};
        LocalJobsTest.waitUntil(() -> {
            cli.run("queue", "tick");
            last[0] = show(id);
            return check.test(last[0]);
        }, 90, () -> String.valueOf(last[0]));
        return last[0];
    }

    /** Sets columns of a job's row as another account's submit, or a finished run, would have left them. */
    private void sql(String update, Object... values) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database());
             PreparedStatement ps = c.prepareStatement(update)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            assertTrue(ps.executeUpdate() > 0, update);
        }
    }

    private JsonNode user(JsonNode status, String name) {
        for (JsonNode u : status.path("users")) {
            if (u.path("user").asText().equals(name)) {
                return u;
            }
        }
        throw new AssertionError("no user " + name + " in " + status.path("users"));
    }

    @Test
    void aJobBeyondItsUsersGpuQuotaWaitsWithTheReasonUntilTheUserHasRoom() throws Exception {
        config("  users:\n    default:\n      max_gpus: 1\n");
        Path gate = tmp.resolve("gate");
        long first = submit("--gpus", "1", "--vram", "4G", "--", waitFor(gate));
        long second = submit("--gpus", "1", "--vram", "4G", "--", "true");
        tickUntil(first, j -> j.path("state").asText().equals("running"));
        JsonNode waiting = tickUntil(second, j -> !j.path("wait_reason").isNull());
        assertEquals("pending", waiting.path("state").asText(), "a free GPU is there, the quota holds it");
        assertEquals("quota: " + me + " runs 1 of 1 GPUs", waiting.path("wait_reason").asText());
        String human = cli.run("job", "show", String.valueOf(second), "--no-tick").out();
        assertTrue(human.contains("waiting     quota: " + me + " runs 1 of 1 GPUs"), human);

        JsonNode status = cli.json("queue", "status", "--no-tick");
        JsonNode u = user(status, me);
        assertEquals(1, u.path("running_gpus").asInt(), u.toString());
        assertEquals(1, u.path("pending").asInt(), u.toString());
        assertEquals(1, u.path("limits").path("max_gpus").asInt(), u.toString());
        assertTrue(u.path("limits").path("max_pending").isNull(), u.toString());
        String text = cli.run("queue", "status", "--no-tick").out();
        assertTrue(text.contains("USERS") && text.contains("gpus≤1"), "a limit shows even with one user: " + text);

        Files.writeString(gate, "");
        JsonNode started = tickUntil(second, j -> !j.path("state").asText().equals("pending"));
        assertTrue(started.path("wait_reason").isNull(), "a start clears the reason: " + started);
    }

    @Test
    void runningJobsAndVramQuotasHoldJobsToo() throws Exception {
        config("  users:\n    default:\n      max_running: 1\n      max_vram: 12G\n");
        Path gate = tmp.resolve("gate");
        long first = submit("--gpus", "1", "--vram", "8G", "--", waitFor(gate));
        long second = submit("--gpus", "0", "--", "true");
        tickUntil(first, j -> j.path("state").asText().equals("running"));
        assertEquals("quota: " + me + " runs 1 of 1 jobs",
                tickUntil(second, j -> !j.path("wait_reason").isNull()).path("wait_reason").asText());

        config("  users:\n    default:\n      max_vram: 12G\n");
        long third = submit("--gpus", "1", "--vram", "6G", "--", "true");
        JsonNode held = tickUntil(third, j -> !j.path("wait_reason").isNull());
        assertEquals("quota: " + me + " holds 8.0G of 12.0G VRAM and the job needs 6.0G", held.path("wait_reason").asText());
        assertEquals("completed", tickUntil(second, j -> j.path("state").asText().equals("completed")).path("state")
                .asText(), "with max_running gone, the CPU job runs beside the first");
        Files.writeString(gate, "");
        tickUntil(third, j -> j.path("state").asText().equals("completed"));
    }

    @Test
    void aSubmitBeyondMaxPendingIsRefusedAndQueuesNothing() throws Exception {
        config("  users:\n    default:\n      max_pending: 2\n      max_gpus: 1\n");
        submit("--gpus", "0", "--", "true");
        submit("--gpus", "0", "--", "true");
        Cli.Result third = cli.run("job", "submit", "--no-tick", "--json", "--gpus", "0", "--", "true");
        assertEquals(75, third.exit(), third.toString());
        assertEquals("quota", third.json().path("code").asText(), third.toString());
        assertEquals("quota: " + me + " has 2 of 2 jobs waiting (queue.users max_pending); submit again when some"
                + " have started, or cancel some", third.json().path("error").asText());
        Cli.Result sweep = cli.run("job", "sweep", "--no-tick", "--json", "--gpus", "0", "--grid", "x=1,2,3", "--",
                "echo {x}");
        assertEquals(75, sweep.exit(), sweep.toString());
        assertTrue(sweep.json().path("error").asText().contains("and this adds 3"), sweep.toString());
        Cli.Result big = cli.run("job", "submit", "--no-tick", "--json", "--gpus", "2", "--", "true");
        assertEquals(75, big.exit(), big.toString());
        assertTrue(big.json().path("error").asText().contains("may hold 1 GPUs at once (queue.users max_gpus) and the"
                + " job asks for 2"), big.toString());
        assertEquals(2, cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs").size(), "refused submits make nothing");
        assertTrue(cli.run("job", "submit", "--no-tick", "--gpus", "0", "--", "true").err().contains("quota:"),
                "the human error names the quota too");
    }

    @Test
    void fairShareStartsALightUsersJobBeforeAHeavyUsersOlderBacklog() throws Exception {
        alpha.removeGpu(1); // one GPU, room for one 20G job at a time
        config("  fairshare_half_life: 7d\n");
        Instant now = Instant.now();
        // alice ran two GPUs for an hour, ending an hour ago; bob never ran anything.
        long past = submit("--gpus", "2", "--vram", "1G", "--", "true");
        sql("UPDATE jobs SET user = 'alice', state = 'completed', exit_code = 0, started_at = ?, finished_at = ?"
                + " WHERE id = ?", Times.iso(now.minus(Duration.ofHours(2))), Times.iso(now.minus(Duration.ofHours(1))), past);
        Path gate = tmp.resolve("gate");
        List<Long> backlog = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            backlog.add(submit("--gpus", "1", "--vram", "20G", "--", waitFor(gate)));
        }
        long light = submit("--gpus", "1", "--vram", "20G", "--", waitFor(gate));
        for (long id : backlog) {
            sql("UPDATE jobs SET user = 'alice' WHERE id = ?", id);
        }
        sql("UPDATE jobs SET user = 'bob' WHERE id = ?", light);

        JsonNode status = cli.json("queue", "status", "--no-tick");
        double h = Duration.ofDays(7).toSeconds();
        double expected = 2 * h / Math.log(2) * (Math.pow(2, -3600 / h) - Math.pow(2, -7200 / h)) / 3600;
        JsonNode alice = user(status, "alice");
        assertEquals(expected, alice.path("usage_gpu_hours").asDouble(), 0.011, alice.toString());
        assertEquals(100.0, alice.path("usage_percent").asDouble(), alice.toString());
        assertEquals(50.0, alice.path("share_percent").asDouble(), alice.toString());
        assertEquals(0.0, user(status, "bob").path("usage_percent").asDouble());

        JsonNode started = tickUntil(light, j -> j.path("state").asText().equals("running"));
        assertEquals("running", started.path("state").asText(), "the newest job, bob's, starts first");
        for (long id : backlog) {
            JsonNode j = show(id);
            assertEquals("pending", j.path("state").asText(), j.toString());
        }
        assertEquals("fair share: bob goes first (bob used 0% of recent GPU time for a 50% share; alice 100% for 50%)",
                show(backlog.get(0)).path("wait_reason").asText());
        String text = cli.run("queue", "status", "--no-tick").out();
        assertTrue(text.contains("USERS") && text.contains("alice") && text.contains("bob"), text);

        // queue.fairshare: off keeps the plain order: priority, then age.
        config("  fairshare: false\n");
        long later = submit("--gpus", "1", "--vram", "20G", "--", "true");
        sql("UPDATE jobs SET user = 'bob' WHERE id = ?", later);
        Files.writeString(gate, "");
        JsonNode oldest = tickUntil(backlog.get(0), j -> !j.path("state").asText().equals("pending"));
        assertTrue(show(later).path("state").asText().equals("pending"), "alice's oldest goes before bob's newer job");
        assertTrue(oldest.path("wait_reason").isNull(), oldest.toString());
    }

    @Test
    void badLabSettingsAreRefusedNamingTheKeyAndWhatWouldBeRight() throws Exception {
        String[][] cases = {
            {"  users: [alice]\n", "queue.users", "must be a mapping of user names"},
            {"  users:\n    alice:\n      max_gpu: 2\n", "queue.users.alice.max_gpu", "is not a known setting"},
            {"  users:\n    alice:\n      share: 0\n", "queue.users.alice.share", "must be a weight above 0"},
            {"  users:\n    default:\n      max_vram: lots\n", "queue.users.default.max_vram", "must be a size such as 80G"},
            {"  users:\n    'bad name':\n      share: 2\n", "bad name", "is not an account name"},
            {"  fairshare_half_life: soon\n", "queue.fairshare_half_life", "must be a span of a minute or more"},
            {"  fairshare: maybe\n", "queue.fairshare", "must be true or false"},
        };
        for (String[] c : cases) {
            config(c[0]);
            Cli.Result r = cli.run("queue", "status", "--no-tick");
            assertEquals(64, r.exit(), c[0] + r);
            assertTrue(r.err().contains(c[1]) && r.err().contains(c[2]), c[0] + r.err());
            assertTrue(!r.err().contains("Exception"), "no stack trace: " + r.err());
        }
    }
}
