package nvidb.spi.placement;

/** The part of a job a placement policy needs: how many GPUs, and how much memory on each. */
public record PlacementRequest(long jobId, int gpus, long vramMb) {
    public PlacementRequest {
        if (gpus < 1) {
            throw new IllegalArgumentException("a placement request needs at least one GPU, got " + gpus);
        }
        if (vramMb < 0) {
            throw new IllegalArgumentException("vramMb must not be negative, got " + vramMb);
        }
    }
}
