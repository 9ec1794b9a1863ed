package nvidb.core.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.config.LabSettings;
import nvidb.core.store.LabRepository.GpuRun;
import org.junit.jupiter.api.Test;

/** The fair-share factor's arithmetic, against sums made by hand and by brute force. */
class FairShareTest {
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final Duration WEEK = Duration.ofDays(7);

    @Test
    void usageIsTheRunsGpuSecondsEachWeightedByItsAge() {
        // Two GPUs from 3 days to 1 day ago, summed second by second with the weight 2^(-age/7d).
        GpuRun run = new GpuRun("alice", 2, NOW.minus(Duration.ofDays(3)), NOW.minus(Duration.ofDays(1)));
        double bySecond = 0;
        for (long age = 86_400; age < 3 * 86_400; age++) {
            bySecond += 2 * Math.pow(2, -(age + 0.5) / WEEK.toSeconds());
        }
        double usage = FairShare.usage(List.of(run), NOW, WEEK).get("alice");
        assertEquals(bySecond, usage, bySecond * 1e-6);
        // A run that ended one half-life ago counts half what it would now.
        GpuRun old = new GpuRun("bob", 1, NOW.minus(WEEK).minusSeconds(60), NOW.minus(WEEK));
        GpuRun fresh = new GpuRun("carol", 1, NOW.minusSeconds(60), NOW);
        Map<String, Double> u = FairShare.usage(List.of(old, fresh), NOW, WEEK);
        assertEquals(0.5, u.get("bob") / u.get("carol"), 1e-4);
        // A running job counts up to now; a pre-schema-11 job counts for "-".
        GpuRun running = new GpuRun(null, 1, NOW.minusSeconds(100), null);
        assertEquals(100, FairShare.usage(List.of(running), NOW, WEEK).get(FairShare.UNKNOWN_USER), 0.01);
    }

    @Test
    void sharesArePartsOfTheActiveUsersWeightsAndTheLowestUsageOverShareGoesFirst() {
        LabSettings lab = new LabSettings(LabSettings.UserPolicy.UNLIMITED, Map.of("alice",
                new LabSettings.UserPolicy(null, null, null, null, 3)), true, WEEK);
        // alice has three times bob's weight and used 60 % of everyone's GPU time: under her 75 %.
        Map<String, FairShare.Standing> s = FairShare.standings(Map.of("alice", 600.0, "bob", 300.0, "carol", 100.0),
                Set.of("alice", "bob"), lab);
        assertEquals(75.0, s.get("alice").sharePercent(), 1e-9);
        assertEquals(25.0, s.get("bob").sharePercent(), 1e-9);
        assertEquals(20.0, s.get("carol").sharePercent(), 1e-9, "an idle user's share: 1 of 3 + 1 + 1");
        assertEquals(60.0, s.get("alice").usagePercent(), 1e-9);
        assertTrue(s.get("alice").factor() < s.get("bob").factor());

        List<Job> jobs = new ArrayList<>(List.of(job(1, "bob", 0), job(2, "bob", 5), job(3, "alice", 0), job(4, "alice", 1)));
        assertEquals(List.of(4L, 3L, 2L, 1L), FairShare.sorted(jobs, s).stream().map(Job::id).toList(),
                "alice's jobs first (priority, then age), then bob's");
        jobs.sort(FairShare.order(s));
        assertEquals(List.of(4L, 3L, 2L, 1L), jobs.stream().map(Job::id).toList(), "the comparator agrees");
        // Nobody used anything yet: the plain order, priority then age.
        jobs.sort(FairShare.order(FairShare.standings(Map.of(), Set.of("alice", "bob"), lab)));
        assertEquals(List.of(2L, 4L, 1L, 3L), jobs.stream().map(Job::id).toList());
    }

    static Job job(long id, String user, int priority) {
        Job j = new Job(id, "", JobState.PENDING, "true", null, Map.of(), priority, 1, 1024, null, List.of(), List.of(),
                null, "t", List.of(), NOW, NOW, null, null, null, List.of(), null, null, null, null, null, null, 0, 0,
                null, null, null, null, null, null, null, null, null);
        return new Job(j.id(), j.name(), j.state(), j.command(), j.workdir(), j.env(), j.priority(), j.gpus(), j.vramMb(),
                j.nodeConstraint(), j.dependsOn(), j.dependsAny(), j.maxRuntimeS(), j.submitter(), j.tags(), j.createdAt(),
                j.updatedAt(), j.startedAt(), j.finishedAt(), j.node(), j.gpuIds(), j.lane(), j.laneSeq(), j.remotePid(),
                j.remotePgid(), j.runDir(), j.exitCode(), j.attempt(), j.maxRetries(), j.lastError(), j.heartbeatAt(),
                j.gpuMemMb(), j.resultJson(), j.notes(), j.progress(), j.progressAt(), j.heldReason(), j.idempotencyKey(),
                j.learned(), user, null);
    }
}
