package nvidb.spi.batch;

import java.util.Objects;

/**
 * One batch job as the batch system reported it.
 *
 * @param state  the system's own word for it ({@code PENDING}, {@code NODE_FAIL}…)
 * @param reason why it waits or ended, in the system's words, or null
 */
public record BatchJobState(String id, BatchPhase phase, String state, String reason) {
    public BatchJobState {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(phase, "phase");
    }
}
