package nvidb.plugins.probe.nvidiasmi;

import static nvidb.plugins.probe.nvidiasmi.Sections.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.GpuSnapshot;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeSettings;
import org.junit.jupiter.api.Test;

/**
 * The probe's own GPU section, as this plugin's script printed it on a real NVIDIA H200 (driver
 * 580.159.04, CUDA 13.0) on 2026-12-04: {@code h200-busy-section.txt} while two PyTorch processes
 * held memory (pid 441: a 20 GiB tensor and bf16 matrix products, 99 % busy; pid 442: a 3 GiB
 * tensor, idle), {@code h200-idle-section.txt} four seconds after both were killed. The fixtures
 * are the script's stdout byte for byte; nothing was edited. They show what the documented
 * examples cannot: the CUDA context's own memory (~1.4 GiB and ~0.7 GiB beyond the tensors) is
 * credited to the process, and memory.used is a little more than the processes' sum.
 */
class RealH200CaptureTest {

    static final String UUID = "GPU-651b0777-b15d-7a86-5cf1-a3e74db35b96";

    final Probe probe = new NvidiaSmiProbeFactory().create(new ProbeSettings("nvidia-smi"));

    @Test
    void twoCudaProcessesHoldingMemoryAreAttributedToTheirPids() {
        GpuReport report = probe.parse(fixture("h200-busy-section.txt"));
        assertNull(report.error());
        assertEquals(List.of(new GpuSnapshot(0, UUID, "NVIDIA H200", 143771, 25269, 99, 30, 57,
                Attribution.PROCESSES, List.of(new GpuProcess(441, 21444, "python3"),
                        new GpuProcess(442, 3810, "python3")))), report.gpus());
        GpuSnapshot gpu = report.gpus().get(0);
        int attributed = gpu.processes().stream().mapToInt(GpuProcess::memMb).sum();
        // 15 MiB of memory.used is credited to no process (the driver's own share while contexts
        // exist; it is gone with them): core's capacity model counts it as external, since it
        // takes external as used minus the queue's own processes, not as the sum of strangers.
        assertEquals(25254, attributed);
        assertEquals(15, gpu.memUsedMb() - attributed);
    }

    @Test
    void anIdleCardAfterItsProcessesExitHasNoProcessesAndNoUsedMemory() {
        GpuReport report = probe.parse(fixture("h200-idle-section.txt"));
        assertNull(report.error());
        assertEquals(List.of(new GpuSnapshot(0, UUID, "NVIDIA H200", 143771, 0, 0, 0, 38,
                Attribution.PROCESSES, List.of())), report.gpus());
    }

    @Test
    void theWslProbeReadsTheSameRealOutputBlind() {
        GpuReport report = new NvidiaSmiProbe("nvidia-smi", Attribution.BLIND).parse(fixture("h200-busy-section.txt"));
        GpuSnapshot gpu = report.gpus().get(0);
        assertEquals(Attribution.BLIND, gpu.attribution());
        assertEquals(25269, gpu.memUsedMb());
        assertEquals(List.of(441, 442), gpu.processes().stream().map(GpuProcess::pid).toList());
        gpu.processes().forEach(p -> assertNull(p.memMb(), "blind: no process is credited memory"));
    }
}
