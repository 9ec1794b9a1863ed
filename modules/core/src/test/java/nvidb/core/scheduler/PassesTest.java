package nvidb.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.TickSummary;
import nvidb.core.node.NodeReport;
import nvidb.core.store.JobChanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each pass of a tick on its own, against a real SQLite file and a node reached with the real
 * {@code sh} (or cut off): what it writes, and what it reports in the tick's summary.
 */
class PassesTest {
    @TempDir
    Path tmp;
    private PassFixture f;

    @BeforeEach
    void open() {
        f = new PassFixture(tmp);
    }

    @AfterEach
    void close() {
        f.close();
    }

    // ------------------------------------------------------------------ dependency gate

    @Test
    void theGateHoldsAJobWhoseDependencyFailedOnceAndLetsGoWhenItIsRequeued() {
        long dep = f.submit(PassFixture.job(0, null, List.of()));
        long waiting = f.submit(PassFixture.job(0, null, List.of(dep)));
        f.store.jobs.update(dep, running().state(JobState.FAILED).exitCode(1), Instant.now());
        DependencyGatePass gate = new DependencyGatePass(f.store, f.lifecycle);

        TickSummary.Builder first = new TickSummary.Builder();
        gate.run(first);
        assertEquals("dependency " + dep + " ended as failed", f.find(waiting).heldReason());
        assertEquals(List.of(new TickSummary.Held(waiting, "dependency " + dep + " ended as failed")),
                first.build().held());
        assertEquals("job_held", first.build().alerts().getFirst().kind());

        TickSummary.Builder again = new TickSummary.Builder();
        gate.run(again);
        assertTrue(again.build().alerts().isEmpty(), "the same reason raises no second alert");

        f.lifecycle.requeue(dep, Instant.now());
        gate.run(new TickSummary.Builder());
        assertNull(f.find(waiting).heldReason());
        assertEquals("job_unheld", f.events(waiting).getLast().kind());
    }

    // ------------------------------------------------------------------ timeouts

    @Test
    void anOverrunningJobOnAnUnreachableNodeTimesOutAndIsOwedAKill() {
        long id = startedSecondsAgo(120, 60);
        f.cutOff();
        TickSummary.Builder summary = new TickSummary.Builder();
        new TimeoutPass(f.store, f.lifecycle, new NodeKills(f.nodes)).run(summary);
        Job job = f.find(id);
        assertEquals(JobState.TIMEOUT, job.state());
        assertEquals("exceeded max runtime of 60s", job.lastError());
        assertEquals(List.of(new TickSummary.Finished(id, "timeout", null)), summary.build().finished());
        assertEquals("job " + id + " killed after 60s (limit 60s)", f.alerts().getLast().title());
        assertEquals("timed out while unreachable", f.store.orphans().forNode(PassFixture.NODE).getFirst().reason());
    }

    @Test
    void aJobWithinItsTimeoutIsLeftRunning() {
        long id = startedSecondsAgo(10, 60);
        TickSummary.Builder summary = new TickSummary.Builder();
        new TimeoutPass(f.store, f.lifecycle, new NodeKills(f.nodes)).run(summary);
        assertEquals(JobState.RUNNING, f.find(id).state());
        assertTrue(summary.build().finished().isEmpty());
    }

    // ------------------------------------------------------------------ settle

    @Test
    void settleFinishesFailsRetriesAndKeepsWhatItsDirectoriesSay() {
        long ok = startedSecondsAgo(5, null);
        long bad = startedSecondsAgo(5, null);
        long gone = startedSecondsAgo(5, null);
        long alive = startedSecondsAgo(5, null);
        long now = Instant.now().getEpochSecond();
        Map<Long, NodeReport.JobDirState> dirs = Map.of(
                ok, dir(ok, false, 0, now, "{\"acc\": 0.9}", null, "done"),
                bad, dir(bad, false, 7, now, null, "Traceback\nValueError: nan\n", null),
                gone, dir(gone, false, null, null, null, null, null),
                alive, dir(alive, true, null, null, null, null, "epoch 3/10"));
        List<Job> running = List.of(f.find(ok), f.find(bad), f.find(gone), f.find(alive));
        NodeReport report = new NodeReport("Linux", "/root", Map.of(), "", dirs);
        Observation.Reached o = new Observation.Reached(node(), running, List.of(), report, null, Map.of());
        TickSummary.Builder summary = new TickSummary.Builder();
        Launcher launcher = launcher();

        List<Job> still = new SettlePass(f.store, f.lifecycle, launcher).run(o, Map.of(), summary);

        assertEquals(List.of(alive), still.stream().map(Job::id).toList());
        assertEquals("epoch 3/10", f.find(alive).progress());
        assertEquals(JobState.COMPLETED, f.find(ok).state());
        assertEquals("{\"acc\":0.9}", f.find(ok).resultJson());
        assertEquals(JobState.FAILED, f.find(bad).state());
        assertEquals("exit code 7: ValueError: nan", f.find(bad).lastError());
        assertEquals(JobState.LOST, f.find(gone).state());
        assertEquals(List.of("completed", "failed", "lost"),
                summary.build().finished().stream().map(TickSummary.Finished::state).toList());
        assertEquals(List.of("job_failed", "job_lost"), summary.build().alerts().stream()
                .map(TickSummary.AlertRef::kind).toList());
    }

    @Test
    void aJobARunnerStoppedForOverrunningIsATimeoutEvenWhenItsExitCodeWasNeverWritten() {
        long id = startedSecondsAgo(20, 10);
        NodeReport.JobDirState killed = new NodeReport.JobDirState(id, null, null, false, null, null, null, true, null,
                null, "Terminated\n", 10L);
        NodeReport report = new NodeReport("Linux", "/root", Map.of(), "", Map.of(id, killed));
        Observation.Reached o = new Observation.Reached(node(), List.of(f.find(id)), List.of(), report, null, Map.of());
        TickSummary.Builder summary = new TickSummary.Builder();
        new SettlePass(f.store, f.lifecycle, launcher()).run(o, Map.of(), summary);
        assertEquals(JobState.TIMEOUT, f.find(id).state());
        assertEquals("job_timeout", f.events(id).getLast().kind());
        assertEquals("{\"runner\":true}", f.events(id).getLast().dataJson());
    }

    // ------------------------------------------------------------------ node refresh

    @Test
    void anUnreachableNodeGoesDownWithOneAlertAndKeepsItsJobsRunning() {
        long id = startedSecondsAgo(5, null);
        f.cutOff();
        NodeRefreshPass refresh = new NodeRefreshPass(f.store, f.config, f.nodes, new NodeKills(f.nodes));
        for (int pass = 0; pass < 2; pass++) {
            TickSummary.Builder summary = new TickSummary.Builder();
            for (Observation o : refresh.probe(summary)) {
                Observation.Unreachable down = assertInstanceOf(Observation.Unreachable.class, o);
                assertTrue(down.reason().contains("No route to host"), down.reason());
                refresh.markDown(down, summary);
            }
            TickSummary s = summary.build();
            assertEquals(1, s.nodesDown());
            assertEquals(pass == 0 ? 1 : 0, s.alerts().size(), "one node_down alert, not one per pass");
        }
        NodeRecord box = f.store.db.read(() -> f.store.nodes.find(PassFixture.NODE)).orElseThrow();
        assertEquals(nvidb.core.api.NodeState.DOWN, box.state());
        assertEquals(JobState.RUNNING, f.find(id).state());
    }

    // ------------------------------------------------------------------ pool dispatch

    @Test
    void aJobNoCardCouldEverHoldIsRejectedAndALaunchThatCannotReachItsNodeAlertsOnce() {
        long huge = f.submit(PassFixture.job(10_000_000, null, List.of()));
        long fits = f.submit(PassFixture.job(1024, null, List.of()));
        f.store.db.write(() -> {
            f.store.nodes.markUp(PassFixture.NODE, Instant.now(), null, 1);
            f.store.gpus.replace(PassFixture.NODE, List.of(gpu()));
            return null;
        });
        f.cutOff();
        PoolDispatchPass pool = new PoolDispatchPass(f.store, f.lifecycle, launcher(), null);
        for (int pass = 0; pass < 2; pass++) {
            TickSummary.Builder summary = new TickSummary.Builder();
            pool.run(round(), null, java.util.Map.of(), java.util.Map.of(), summary);
            if (pass == 0) {
                assertEquals(List.of("job_unschedulable", "launch_failed"), summary.build().alerts().stream()
                        .map(TickSummary.AlertRef::kind).toList());
            } else {
                assertTrue(summary.build().alerts().isEmpty(), "a persistent launch fault alerts once");
            }
        }
        assertEquals(JobState.FAILED, f.find(huge).state());
        assertEquals(JobState.PENDING, f.find(fits).state());
        assertTrue(f.find(fits).lastError().startsWith("launch failed: box: ssh: connect to host"),
                f.find(fits).lastError());
        assertEquals(PassFixture.NODE, f.find(fits).node(),
                "the place was recorded before the round trip: the job may have started there, so it goes nowhere else");
        assertEquals(List.of(0), f.find(fits).gpuIds());
    }

    @Test
    void aProcessLaunchedForAJobCancelledDuringItsLaunchIsStoppedNotLeftOnTheCard() throws Exception {
        Instant now = Instant.now();
        f.store.db.write(() -> {
            f.store.nodes.markUp(PassFixture.NODE, now, null, 1);
            f.store.gpus.replace(PassFixture.NODE, List.of(gpu()));
            return null;
        });
        long id = f.submit(new nvidb.core.store.JobRepository.NewJob("", "sleep 60", null, Map.of(), 0, 1, 1024, null,
                List.of(), List.of(), null, "tester@host:1", List.of(), null, null, 0, null, null));
        Launcher launcher = launcher();
        PlacementPlanner.Choice place = new PlacementPlanner.Choice(PassFixture.NODE, List.of(0));
        f.lifecycle.place(id, PassFixture.NODE, List.of(0), now);
        nvidb.core.node.LaunchResult launched = launcher.launch(f.find(id), place, 1);
        assertTrue(launched.started(), launched.toString());
        ProcessHandle process = ProcessHandle.of(launched.pid()).orElseThrow();
        // A person cancels the job while the launch's answer is still on its way back.
        f.lifecycle.cancel(id, null, Instant.now());

        TickSummary.Builder summary = new TickSummary.Builder();
        launcher.started(f.find(id), place, launched, 1, summary);

        assertTrue(summary.build().dispatched().isEmpty());
        assertEquals(JobState.CANCELLED, f.find(id).state());
        process.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(process.isAlive(), "the unwanted run was stopped");
    }

    @Test
    void aLaunchWhoseClientDiedGoesBackToItsPlaceAndAdoptsTheAttemptInsteadOfStartingItAgain() throws Exception {
        Instant now = Instant.now();
        f.store.db.write(() -> {
            f.store.nodes.markUp(PassFixture.NODE, now, null, 1);
            f.store.gpus.replace(PassFixture.NODE, List.of(gpu()));
            return null;
        });
        java.nio.file.Path marker = tmp.resolve("ran");
        long id = f.submit(new nvidb.core.store.JobRepository.NewJob("", "echo ran >> " + marker, null, Map.of(), 0, 1,
                1024, null, List.of(), List.of(), null, "tester@host:1", List.of(), null, null, 0, null, null));
        // A client placed it, the node started and finished attempt 1, and the client was killed
        // before it recorded the start: the database still says pending, placed on box.
        f.lifecycle.place(id, PassFixture.NODE, List.of(0), now);
        java.nio.file.Path dir = java.nio.file.Files.createDirectories(tmp.resolve("jobs")
                .resolve(nvidb.core.node.NodeScripts.runDirName(id, 1)));
        java.nio.file.Files.writeString(dir.resolve("pid"), "999999\n");
        java.nio.file.Files.writeString(dir.resolve("exit_code"), "0 " + now.getEpochSecond() + "\n");

        TickSummary.Builder summary = new TickSummary.Builder();
        new PoolDispatchPass(f.store, f.lifecycle, launcher(), null).run(round(), null, java.util.Map.of(), java.util.Map.of(), summary);

        Job job = f.find(id);
        assertEquals(JobState.RUNNING, job.state(), "recorded as the run it was: " + job);
        assertEquals(PassFixture.NODE, job.node());
        assertEquals("{\"pid\":999999,\"gpu_ids\":[0],\"vram_mb\":1024,\"vram\":\"1.0G\",\"adopted\":true}",
                f.events(id).getLast().dataJson());
        assertFalse(java.nio.file.Files.exists(marker), "the attempt was not started a second time");
    }

    @Test
    void aPlaceWhoseNodeRefusesTheLaunchIsClearedSoTheJobMayGoElsewhere() {
        long id = f.submit(PassFixture.job(1024, null, List.of()));
        f.lifecycle.place(id, PassFixture.NODE, List.of(0), Instant.now());
        f.lifecycle.unplace(id, Instant.now());
        assertNull(f.find(id).node());
        assertEquals(List.of(), f.find(id).gpuIds());
    }

    // ------------------------------------------------------------------ lanes without a runner

    @Test
    void aLaneWithoutARunnerStartsItsHeadForRealAndNothingPastItsConcurrency() throws Exception {
        Instant now = Instant.now();
        f.store.db.write(() -> {
            f.store.nodes.markUp(PassFixture.NODE, now, null, 1);
            f.store.gpus.replace(PassFixture.NODE, List.of(gpu()));
            f.store.lanes.create("box:0", PassFixture.NODE, List.of(0), now);
            f.store.lanes.setRunner("box:0", false, now);
            return null;
        });
        long head = f.submit(laneJob(1));
        long next = f.submit(laneJob(2));
        TickSummary.Builder summary = new TickSummary.Builder();
        new LaneDispatchPass(f.store, f.nodes, launcher()).run(round(), summary);
        Job started = f.find(head);
        try {
            assertEquals(JobState.RUNNING, started.state());
            assertEquals(List.of(0), started.gpuIds());
            assertTrue(ProcessHandle.of(started.remotePid()).map(ProcessHandle::isAlive).orElse(false),
                    "the job's run.sh runs: " + started);
            assertEquals(JobState.PENDING, f.find(next).state(), "concurrency 1: the next one waits");
            assertEquals(List.of(head), summary.build().dispatched().stream().map(TickSummary.Dispatched::id).toList());
        } finally {
            new ProcessBuilder("kill", "-KILL", "--", "-" + started.remotePgid()).start().waitFor();
        }
    }

    private static nvidb.core.store.JobRepository.NewJob laneJob(long seq) {
        return new nvidb.core.store.JobRepository.NewJob("", "sleep 60", null, Map.of(), 0, 1, 1024, PassFixture.NODE,
                List.of(), List.of(), null, "tester@host:1", List.of(), "box:0", seq, 0, null, null);
    }

    // ------------------------------------------------------------------ helpers

    private Launcher launcher() {
        return new Launcher(f.config, f.nodes, f.lifecycle, new NodeKills(f.nodes));
    }

    private DispatchRound round() {
        List<Job> pending = f.store.db.read(() -> f.store.jobs.inStates(List.of(JobState.PENDING)));
        PlacementPlanner planner = new PlacementPlanner(f.config.settings(), new FirstFitPolicy(),
                f.store.db.read(f.store.nodes::all), f.config.servers(),
                f.store.db.read(() -> f.store.gpus.all(0)), List.of());
        return new DispatchRound(pending, List.of(), Map.of(), planner, SweepLimits.none(),
                nvidb.core.lab.UserQuotas.read(f.config.settings().lab(), pending, List.of()), PlacementPlanner.ORDER);
    }

    /** An idle 80 GiB card. */
    private static nvidb.core.api.GpuState gpu() {
        return new nvidb.core.api.GpuState(PassFixture.NODE, 0, "GPU-0", "H100", 81_920, 0, 0, 0, 30, 0, 0, 0, 0, 0,
                "processes", List.of(), 81_920, Instant.now());
    }

    /** The first card with room; enough for passes that test what happens around a placement. */
    private static final class FirstFitPolicy implements nvidb.spi.placement.PlacementPolicy {
        @Override
        public java.util.Optional<nvidb.spi.placement.Placement> place(nvidb.spi.placement.PlacementRequest request,
                                                                     List<nvidb.spi.placement.GpuBudget> candidates) {
            return candidates.stream().filter(b -> b.freeMb() >= request.vramMb()).findFirst()
                    .map(b -> new nvidb.spi.placement.Placement(b.node(), List.of(b.index())));
        }
    }

    private NodeRecord node() {
        return f.store.db.read(() -> f.store.nodes.find(PassFixture.NODE)).orElseThrow();
    }

    private long startedSecondsAgo(long seconds, Integer timeoutS) {
        long id = f.submit(PassFixture.job(1024, timeoutS, List.of()));
        f.store.jobs.update(id, running().startedAt(Instant.now().minusSeconds(seconds)), Instant.now());
        return id;
    }

    private JobChanges running() {
        return new JobChanges().state(JobState.RUNNING).node(PassFixture.NODE)
                .gpuIds(List.of(0)).remotePid(999_999).remotePgid(999_999)
                .runDir(tmp.resolve("run").toString()).attempt(1);
    }

    private static NodeReport.JobDirState dir(long id, boolean alive, Integer exit, Long finishedAt, String result,
                                              String tail, String status) {
        return new NodeReport.JobDirState(id, alive ? 4242 : null, null, alive, exit, finishedAt, null, false, status,
                result, tail, null);
    }
}
