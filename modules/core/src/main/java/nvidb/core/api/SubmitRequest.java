package nvidb.core.api;

import java.util.List;
import java.util.Map;

/**
 * What {@code job submit} asks for, as typed (sizes and ids already parsed by the command).
 *
 * @param vram   the size text given to {@code --vram} ({@code auto}: learned from earlier runs), or
 *               null for {@code queue.default_vram}
 * @param at     the position in the lane ({@code head}, {@code tail}, a 1-based slot) or null
 * @param noBurst the job never overflows to a batch node ({@code --no-burst})
 * @param oomRetry {@code --oom-retry}: requeues bigger after running out of GPU memory; null for
 *                 {@code queue.oom_retry}
 */
public record SubmitRequest(String name, String command, String workdir, Map<String, String> env, int priority,
                            int gpus, String vram, String node, String lane, String at, List<Long> after,
                            List<Long> afterAny, Integer timeoutSeconds, int retries, List<String> tags,
                            String submitter, String note, String idempotencyKey, boolean noBurst, Integer oomRetry) {
    /** The word {@code --vram} takes to size a job from its earlier runs. */
    public static final String AUTO_VRAM = "auto";

    public SubmitRequest {
        env = env == null ? Map.of() : Map.copyOf(env);
        after = after == null ? List.of() : List.copyOf(after);
        afterAny = afterAny == null ? List.of() : List.copyOf(afterAny);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    public SubmitRequest(String name, String command, String workdir, Map<String, String> env, int priority,
                         int gpus, String vram, String node, String lane, String at, List<Long> after,
                         List<Long> afterAny, Integer timeoutSeconds, int retries, List<String> tags,
                         String submitter, String note, String idempotencyKey) {
        this(name, command, workdir, env, priority, gpus, vram, node, lane, at, after, afterAny, timeoutSeconds,
                retries, tags, submitter, note, idempotencyKey, false);
    }

    public SubmitRequest(String name, String command, String workdir, Map<String, String> env, int priority,
                         int gpus, String vram, String node, String lane, String at, List<Long> after,
                         List<Long> afterAny, Integer timeoutSeconds, int retries, List<String> tags,
                         String submitter, String note, String idempotencyKey, boolean noBurst) {
        this(name, command, workdir, env, priority, gpus, vram, node, lane, at, after, afterAny, timeoutSeconds,
                retries, tags, submitter, note, idempotencyKey, noBurst, null);
    }

    /** Whether the reservation is to be learned: {@code --vram auto}. */
    public boolean autoVram() {
        return vram != null && AUTO_VRAM.equalsIgnoreCase(vram.strip());
    }
}
