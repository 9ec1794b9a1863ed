package nvidb.core.view;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Job;
import nvidb.core.api.Times;

/**
 * A job with the 37 keys of the reference, in its order, then what the queue learned of it:
 * {@code peak_vram_mb} (the most memory it held on one GPU), {@code mean_util_percent},
 * {@code vram_source} (where its reservation came from) and {@code failure} ({@code oom},
 * {@code killed}, or null); {@code user}, the OS account that submitted it (null before schema 11); and
 * {@code wait_reason}, why the last pass left it waiting when a rule held it (a quota, fair share, its
 * sweep's {@code --max-parallel}), null otherwise.
 */
public record JobView(long id, String name, String state, String command, String workdir, Map<String, String> env,
                      int priority, int gpus, long vramMb, String nodeConstraint, List<Long> dependsOn,
                      List<Long> dependsAny, Integer maxRuntimeS, String submitter, List<String> tags, String createdAt,
                      String startedAt, String finishedAt, Double elapsedS, String node, List<Integer> gpuIds,
                      String lane, Long laneSeq, Integer remotePid, String runDir, Integer exitCode, int attempt,
                      int maxRetries, String lastError, String heartbeatAt, Integer gpuMemMb, JsonNode result,
                      String notes, String progress, String progressAt, String heldReason, boolean held,
                      Integer peakVramMb, Double meanUtilPercent, JsonNode vramSource, String failure, String user,
                      String waitReason) {

    /** {@code j} as {@code --json} shows it at {@code now} (elapsed time to a tenth of a second). */
    public static JobView of(Job j, Instant now) {
        Double elapsed = j.elapsedSeconds(now);
        return new JobView(j.id(), j.name(), j.state().label(), j.command(), j.workdir(), j.env(), j.priority(),
                j.gpus(), j.vramMb(), j.nodeConstraint(), j.dependsOn(), j.dependsAny(), j.maxRuntimeS(),
                j.submitter(), j.tags(), Times.iso(j.createdAt()), Times.iso(j.startedAt()), Times.iso(j.finishedAt()),
                elapsed == null ? null : Math.round(elapsed * 10) / 10.0, j.node(), j.gpuIds(), j.lane(), j.laneSeq(),
                j.remotePid(), j.runDir(), j.exitCode(), j.attempt(), j.maxRetries(), j.lastError(),
                Times.iso(j.heartbeatAt()), j.gpuMemMb(), StoredJson.parsed(j.resultJson()), j.notes(), j.progress(),
                Times.iso(j.progressAt()), j.held() ? j.heldReason() : null, j.held(), j.learned().peakVramMb(),
                j.learned().meanUtilPercent(), StoredJson.parsed(j.learned().vramSource()), j.learned().failure(), j.user(),
                j.waiting());
    }

    public static List<JobView> of(List<Job> jobs, Instant now) {
        return jobs.stream().map(j -> of(j, now)).toList();
    }
}
