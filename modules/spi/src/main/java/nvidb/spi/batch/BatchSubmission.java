package nvidb.spi.batch;

/**
 * One job as the batch system is to be asked for it.
 *
 * @param jobId       nvidb's id (the batch job is named {@code nvidb-<id>})
 * @param gpus        GPUs the job needs (0: a CPU job)
 * @param timeLimitS  the job's {@code --timeout} in seconds, or null for none
 */
public record BatchSubmission(long jobId, int gpus, Integer timeLimitS) {
}
