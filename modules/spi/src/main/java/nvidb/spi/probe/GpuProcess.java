package nvidb.spi.probe;

/**
 * A compute process on a GPU.
 *
 * @param memMb null when the driver does not say (blind attribution)
 */
public record GpuProcess(int pid, Integer memMb, String name) {
}
