package nvidb.spi.batch;

/**
 * What a batch node may take from nvidb.
 *
 * @param gpuVramMb memory of one GPU there (MiB); 0 when not configured, and then any {@code --vram} fits
 * @param maxJobs   nvidb jobs it may hold at once, pending and running; 0 means no limit
 * @param burst     pool jobs no workstation can take may overflow here
 */
public record BatchLimits(long gpuVramMb, int maxJobs, boolean burst) {
    public BatchLimits {
        if (gpuVramMb < 0 || maxJobs < 0) {
            throw new IllegalArgumentException("gpuVramMb and maxJobs must not be negative");
        }
    }
}
