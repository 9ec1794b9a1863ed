package nvidb.core.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import nvidb.core.api.Alert;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.store.JobChanges;
import nvidb.core.store.JobRepository;
import nvidb.core.store.Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole transition table against a real SQLite file: every move from every situation a job
 * can be in. A legal move writes the state, its event and its alert; an illegal one is refused
 * with a conflict (exit 4) and leaves the row, the event log and the alerts exactly as they were.
 */
class JobLifecycleTest {
    /** Where a job can stand: the seven states, with "held" (pending with a hold reason) apart. */
    enum Situation {
        PENDING, HELD, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, LOST
    }

    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    private static final Set<Situation> WAITING = EnumSet.of(Situation.PENDING, Situation.HELD);
    private static final Set<Situation> ENDED = EnumSet.of(Situation.COMPLETED, Situation.FAILED,
            Situation.CANCELLED, Situation.TIMEOUT, Situation.LOST);

    /**
     * The expected table, written out here rather than read from {@link Transition}, so that a
     * change to the table in main code must be made twice to pass.
     */
    private static Set<Situation> legalFrom(Transition t) {
        return switch (t) {
            case SUBMIT -> EnumSet.noneOf(Situation.class);
            case STAGE -> EnumSet.of(Situation.PENDING);
            case UNSTAGE, START, REJECT, HOLD, RELEASE -> WAITING;
            case FINISH, LOSE, TIME_OUT, RETRY, OOM_RETRY -> EnumSet.of(Situation.RUNNING);
            case CANCEL, PREEMPT -> EnumSet.of(Situation.PENDING, Situation.HELD, Situation.RUNNING);
            case REQUEUE, PURGE -> ENDED;
        };
    }

    @TempDir
    Path tmp;
    private Store store;
    private JobLifecycle lifecycle;

    @BeforeEach
    void open() {
        store = Store.open(tmp.resolve("queue.db"));
        lifecycle = new JobLifecycle(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static Stream<Arguments> everyMove() {
        List<Arguments> out = new ArrayList<>();
        for (Transition t : Transition.values()) {
            if (t == Transition.SUBMIT || t == Transition.PURGE) {
                continue; // no state before it; and a purge deletes the row (purgeDeletes… below)
            }
            for (Situation s : Situation.values()) {
                out.add(Arguments.of(t, s));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} from {1}")
    @MethodSource("everyMove")
    void eachMoveIsLegalExactlyWhereTheTableSays(Transition t, Situation from) {
        long id = jobIn(from, t == Transition.RETRY ? 2 : 0, t == Transition.OOM_RETRY ? 1 : 0);
        Job before = job(id);
        int events = events(id).size();
        int alerts = alerts().size();
        if (legalFrom(t).contains(from)) {
            Job after = apply(t, id);
            assertEquals(expectedState(t), after.state(), t + " from " + from);
            assertEquals(after, job(id), "the move returns the row as stored");
            String kind = expectedEvent(t);
            if (kind != null) {
                assertEquals(events + 1, events(id).size(), t + " writes one event");
                assertEquals(kind, events(id).getLast().kind());
            } else {
                assertEquals(events, events(id).size(), t + " writes no event");
            }
            String alert = expectedAlert(t);
            if (alert != null) {
                assertEquals(alerts + 1, alerts().size(), t + " raises one alert");
                assertEquals(alert, alerts().getLast().kind());
                assertEquals(id, alerts().getLast().jobId());
            } else {
                assertEquals(alerts, alerts().size(), t + " raises no alert");
            }
        } else {
            NvidbException e = assertThrows(NvidbException.class, () -> apply(t, id), t + " from " + from);
            assertEquals(ErrorCode.CONFLICT, e.code());
            assertEquals(4, e.code().exitCode());
            assertTrue(e.getMessage().startsWith("job " + id + " is "), e.getMessage());
            assertEquals(before, job(id), "a refused move writes nothing");
            assertEquals(events, events(id).size(), "a refused move writes no event");
            assertEquals(alerts, alerts().size(), "a refused move raises no alert");
        }
    }

    @Test
    void aMoveOnAJobThatDoesNotExistIsNotFound() {
        NvidbException e = assertThrows(NvidbException.class, () -> lifecycle.cancel(999, null, NOW));
        assertEquals(ErrorCode.NOT_FOUND, e.code());
        assertNull(JobLifecycle.ifStillLegal(() -> lifecycle.cancel(999, null, NOW)));
    }

    @Test
    void ifStillLegalTurnsARefusalIntoNothingAndKeepsTheOuterTransaction() {
        long done = jobIn(Situation.COMPLETED, 0);
        long pending = jobIn(Situation.PENDING, 0);
        store.db.write(() -> {
            assertNull(JobLifecycle.ifStillLegal(() -> lifecycle.cancel(done, null, NOW)));
            lifecycle.cancel(pending, null, NOW);
            return null;
        });
        assertEquals(JobState.COMPLETED, job(done).state());
        assertEquals(JobState.CANCELLED, job(pending).state());
    }

    @Test
    void submitWritesAPendingJobAndItsEvent() {
        Job job = job(lifecycle.submit(newJob(0), "train", NOW));
        assertEquals(JobState.PENDING, job.state());
        assertEquals("job_submitted", events(job.id()).getLast().kind());
        assertEquals("train", events(job.id()).getLast().message());
    }

    @Test
    void aFailedExitRaisesAnAlertWithTheOutputTailAndAZeroExitNone() {
        long ok = jobIn(Situation.RUNNING, 0);
        long bad = jobIn(Situation.RUNNING, 0);
        assertNull(lifecycle.finish(ok, new Moves.Exit(0, NOW, "{\"acc\":1}", "fine\n", null), NOW).alert());
        JobLifecycle.Applied failed = lifecycle.finish(bad, new Moves.Exit(3, NOW, null, "boom\nlast words\n", "epoch 2"),
                NOW);
        assertEquals(JobState.COMPLETED, job(ok).state());
        assertEquals("{\"acc\":1}", job(ok).resultJson());
        assertEquals(JobState.FAILED, failed.job().state());
        assertEquals(3, failed.job().exitCode());
        assertEquals("exit code 3: last words", failed.job().lastError());
        assertEquals("epoch 2", failed.job().progress());
        assertEquals("job_failed", failed.alert().kind());
        assertEquals("boom\nlast words\n", alerts().getLast().detail());
        assertEquals("error", alerts().getLast().severity());
    }

    @Test
    void aVanishedJobIsRetriedWhileItHasRetriesLeftThenLost() {
        long id = jobIn(Situation.RUNNING, 1);
        JobLifecycle.Applied first = lifecycle.vanished(id, NOW);
        assertEquals(JobState.PENDING, first.job().state());
        assertNull(first.job().node());
        assertEquals("job_retried", first.alert().kind());
        assertEquals("warning", alerts().getLast().severity());
        store.jobs.update(id, running(2), NOW);
        JobLifecycle.Applied second = lifecycle.vanished(id, NOW);
        assertEquals(JobState.LOST, second.job().state());
        assertEquals("job_lost", second.alert().kind());
    }

    @Test
    void aTimeoutWhoseKillCouldNotBeDeliveredOwesTheNodeAKill() {
        long id = jobIn(Situation.RUNNING, 0);
        lifecycle.timeOut(id, new Moves.Overrun(60, null, NOW, null, null, false, "timed out while unreachable"), NOW);
        assertEquals(JobState.TIMEOUT, job(id).state());
        assertEquals(1, store.orphans().forNode("box").size());
        assertEquals("timed out while unreachable", store.orphans().forNode("box").getFirst().reason());
    }

    @Test
    void requeueSendsALaneJobToItsLaneTailAndClearsItsRun() {
        Instant now = NOW;
        store.db.write(() -> {
            store.lanes.create("box:0", "box", List.of(0), now);
            return null;
        });
        long first = lifecycle.submit(laneJob(1), "a", now);
        long second = lifecycle.submit(laneJob(2), "b", now);
        store.jobs.update(first, running(1).state(JobState.FAILED).exitCode(1), now);
        Job again = lifecycle.requeue(first, now);
        assertEquals(JobState.PENDING, again.state());
        assertNull(again.exitCode());
        assertNull(again.runDir());
        assertTrue(again.laneSeq() > job(second).laneSeq(), "requeued lane job goes to the tail");
    }

    @Test
    void releaseDropsOnlyTheDeadDependencies() {
        long dead = jobIn(Situation.FAILED, 0);
        long alive = jobIn(Situation.RUNNING, 0);
        long id = store.jobs.insert(withDeps(List.of(dead, alive)), NOW);
        lifecycle.hold(id, "dependency " + dead + " ended as failed", NOW);
        Job released = lifecycle.release(id, List.of(dead), "released; dropped dependency " + dead, NOW);
        assertEquals(List.of(alive), released.dependsOn());
        assertNull(released.heldReason());
    }

    /**
     * A purge deletes the jobs in exactly the situations the table allows, except those an active
     * job waits on, and writes one event for them all, with their ids.
     */
    @Test
    void purgeDeletesTheFinishedJobsNoActiveJobWaitsOnWithOneEvent() {
        Map<Situation, Long> ids = new EnumMap<>(Situation.class);
        for (Situation s : Situation.values()) {
            ids.put(s, jobIn(s, 0));
        }
        long awaited = jobIn(Situation.COMPLETED, 0);
        long awaitedAny = jobIn(Situation.FAILED, 0);
        store.jobs.update(ids.get(Situation.HELD), new JobChanges().dependsOn(List.of(awaited)), NOW);
        store.jobs.update(ids.get(Situation.RUNNING), new JobChanges().dependsAny(List.of(awaitedAny)), NOW);
        // Only a finished job waits on this one: that keeps nothing.
        store.jobs.update(ids.get(Situation.CANCELLED), new JobChanges().dependsOn(List.of(ids.get(Situation.COMPLETED))),
                NOW);
        int events = allEvents().size();

        List<Long> removed = new Purge(store).finished(EnumSet.allOf(JobState.class), NOW);

        List<Long> expected = ids.entrySet().stream().filter(e -> legalFrom(Transition.PURGE).contains(e.getKey()))
                .map(Map.Entry::getValue).sorted().toList();
        assertEquals(5, expected.size());
        assertEquals(expected, removed);
        ids.forEach((s, id) -> assertEquals(!expected.contains(id), store.jobs.find(id).isPresent(), s.toString()));
        assertTrue(store.jobs.find(awaited).isPresent(), "a pending job waits on it (--after)");
        assertTrue(store.jobs.find(awaitedAny).isPresent(), "a running job waits on it (--after-any)");
        assertEquals(events + 1, allEvents().size(), "one event for the whole purge");
        Event e = allEvents().getLast();
        assertEquals("job_purged", e.kind());
        assertNull(e.jobId());
        assertEquals("removed 5 finished job record(s)", e.message());
        assertEquals("{\"count\":5,\"ids\":" + expected.toString().replace(" ", "")
                + ",\"states\":[\"completed\",\"failed\",\"cancelled\",\"timeout\",\"lost\"]}", e.dataJson());

        assertEquals(List.of(), new Purge(store).finished(EnumSet.allOf(JobState.class), NOW));
        assertEquals(events + 1, allEvents().size(), "a purge that removes nothing writes no event");
    }

    @Test
    void purgeTakesOnlyTheStatesAskedFor() {
        long completed = jobIn(Situation.COMPLETED, 0);
        long cancelled = jobIn(Situation.CANCELLED, 0);
        assertEquals(List.of(cancelled), new Purge(store).finished(Set.of(JobState.CANCELLED), NOW));
        assertTrue(store.jobs.find(completed).isPresent());
        assertEquals("{\"count\":1,\"ids\":[" + cancelled + "],\"states\":[\"cancelled\"]}",
                allEvents().getLast().dataJson());
    }

    // ------------------------------------------------------------------ helpers

    private Job apply(Transition t, long id) {
        return switch (t) {
            case SUBMIT -> throw new IllegalArgumentException("submit has no source state");
            case PURGE -> throw new IllegalArgumentException("a purge leaves no row to return");
            case STAGE -> lifecycle.stage(id, "/tmp/nvidb/" + id + "/attempt-1", NOW);
            case UNSTAGE -> lifecycle.unstage(id, "/tmp/nvidb/" + id + "/attempt-1", NOW);
            case START -> lifecycle.start(id, new Moves.Start(new Moves.Launched(false), "box", List.of(0), 4242, 4242,
                    "/tmp/nvidb/" + id + "/attempt-1", NOW, 1), NOW).job();
            case FINISH -> lifecycle.finish(id, new Moves.Exit(0, NOW, null, null, null), NOW).job();
            case OOM_RETRY -> lifecycle.finish(id, new Moves.Exit(1, NOW, null, "tail", null,
                    new Moves.OutOfMemory("torch.OutOfMemoryError: CUDA out of memory.", 2048L, 81408)), NOW).job();
            case REJECT -> lifecycle.reject(id, "needs 200 GiB", NOW).job();
            case LOSE, RETRY -> lifecycle.vanished(id, NOW).job();
            case TIME_OUT -> lifecycle.timeOut(id, new Moves.Overrun(60, null, NOW, "tail", null, false, null), NOW).job();
            case CANCEL -> lifecycle.cancel(id, null, NOW);
            case PREEMPT -> new BatchLifecycle(store).preempted(id, "preempted in slurm; waiting again", NOW);
            case REQUEUE -> lifecycle.requeue(id, NOW);
            case HOLD -> lifecycle.hold(id, "dependency 1 ended as failed", NOW).job();
            case RELEASE -> lifecycle.release(id, List.of(), "released", NOW);
        };
    }

    private static JobState expectedState(Transition t) {
        return switch (t) {
            case SUBMIT, STAGE, UNSTAGE, REQUEUE, RETRY, OOM_RETRY, HOLD, RELEASE, PREEMPT -> JobState.PENDING;
            case START -> JobState.RUNNING;
            case FINISH -> JobState.COMPLETED;
            case REJECT -> JobState.FAILED;
            case LOSE -> JobState.LOST;
            case TIME_OUT -> JobState.TIMEOUT;
            case CANCEL -> JobState.CANCELLED;
            case PURGE -> null;
        };
    }

    private static String expectedEvent(Transition t) {
        return switch (t) {
            case STAGE, UNSTAGE -> null;
            case SUBMIT -> "job_submitted";
            case START -> "job_started";
            case FINISH -> "job_finished";
            case REJECT -> "job_failed";
            case LOSE -> "job_lost";
            case TIME_OUT -> "job_timeout";
            case CANCEL -> "job_cancelled";
            case REQUEUE, RETRY, OOM_RETRY, PREEMPT -> "job_requeued";
            case HOLD -> "job_held";
            case RELEASE -> "job_released";
            case PURGE -> "job_purged";
        };
    }

    private static String expectedAlert(Transition t) {
        return switch (t) {
            case REJECT -> "job_unschedulable";
            case LOSE -> "job_lost";
            case TIME_OUT -> "job_timeout";
            case RETRY, OOM_RETRY -> "job_retried";
            case HOLD -> "job_held";
            default -> null;
        };
    }

    /** A job standing in {@code s}; {@code retries} is its {@code --retries}. */
    private long jobIn(Situation s, int retries) {
        return jobIn(s, retries, 0);
    }

    /** @param oomRetry the job's {@code --oom-retry} */
    private long jobIn(Situation s, int retries, int oomRetry) {
        JobRepository.NewJob j = newJob(retries);
        long id = store.jobs.insert(new JobRepository.NewJob(j.name(), j.command(), j.workdir(), j.env(), j.priority(),
                j.gpus(), j.vramMb(), j.nodeConstraint(), j.dependsOn(), j.dependsAny(), j.maxRuntimeS(), j.submitter(),
                j.tags(), j.lane(), j.laneSeq(), j.maxRetries(), j.notes(), j.idempotencyKey(),
                new JobRepository.Sizing(null, null, null, oomRetry), null), NOW);
        JobChanges c = switch (s) {
            case PENDING -> new JobChanges();
            case HELD -> new JobChanges().heldReason("dependency 7 ended as failed");
            case RUNNING -> running(1);
            case COMPLETED -> ended(JobState.COMPLETED).exitCode(0);
            case FAILED -> ended(JobState.FAILED).exitCode(2);
            case CANCELLED -> ended(JobState.CANCELLED);
            case TIMEOUT -> ended(JobState.TIMEOUT);
            case LOST -> ended(JobState.LOST);
        };
        store.jobs.update(id, c, NOW);
        return id;
    }

    private static JobChanges running(int attempt) {
        return new JobChanges().state(JobState.RUNNING).node("box").gpuIds(List.of(0))
                .remotePid(4242).remotePgid(4242).runDir("/tmp/nvidb/run")
                .startedAt(NOW).attempt(attempt);
    }

    private static JobChanges ended(JobState state) {
        return running(1).state(state).finishedAt(NOW);
    }

    private static JobRepository.NewJob newJob(int retries) {
        return new JobRepository.NewJob("", "python train.py", "/tmp", Map.of(), 0, 1, 1024, null, List.of(),
                List.of(), null, "tester@host:1", List.of(), null, null, retries, null, null);
    }

    private static JobRepository.NewJob laneJob(long seq) {
        return new JobRepository.NewJob("", "true", "/tmp", Map.of(), 0, 1, 1024, "box", List.of(), List.of(), null,
                "tester@host:1", List.of(), "box:0", seq, 0, null, null);
    }

    private static JobRepository.NewJob withDeps(List<Long> after) {
        return new JobRepository.NewJob("", "true", "/tmp", Map.of(), 0, 1, 1024, null, after, List.of(), null,
                "tester@host:1", List.of(), null, null, 0, null, null);
    }

    private Job job(long id) {
        return store.db.read(() -> store.jobs.find(id)).orElseThrow();
    }

    private List<Event> events(long id) {
        return store.db.read(() -> store.events.newest(id, 1000));
    }

    private List<Event> allEvents() {
        return store.db.read(() -> store.events.newest(null, 1000));
    }

    private List<Alert> alerts() {
        List<Alert> all = store.db.read(() -> store.alerts.newest(true, 1000));
        assertNotNull(all);
        return all;
    }
}
