package nvidb.plugins.probe.nvidiasmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import nvidb.plugins.probe.wsl.WslProbeFactory;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.GpuSnapshot;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeSettings;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.FakeNvidiaSmi.Mode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated fragment run for real by {@code /bin/sh} against the testkit's fake, then parsed. */
class WslScriptTest {

    @TempDir
    Path tmp;

    FakeNvidiaSmi smi;

    @BeforeEach
    void fake() {
        smi = FakeNvidiaSmi.install("wsl-box", tmp.resolve("bin"), tmp.resolve("state"))
                .gpu(0, "NVIDIA GeForce RTX 4090", 24564).baseUsed(0, 1200).utilization(0, null)
                .memoryUtilization(0, null).foreignProcess(812, 0, 9000, "python");
    }

    static Probe probe(String command) {
        return new WslProbeFactory().create(new ProbeSettings(command));
    }

    static GpuReport roundTrip(Probe probe, String path) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", probe.script()).redirectErrorStream(true);
        pb.environment().put("PATH", path);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return probe.parse(out);
    }

    @Test
    void formAMemoryUsedButNoProcesses() throws Exception {
        smi.mode(Mode.BLIND);
        assertEquals(new GpuReport(List.of(new GpuSnapshot(0, smi.uuid(0), "NVIDIA GeForce RTX 4090", 24564, 10200,
                null, null, 30, Attribution.BLIND, List.of())), null), roundTrip(probe("nvidia-smi"), smi.pathWithFake()));
    }

    @Test
    void formBProcessesListedWithoutMemory() throws Exception {
        smi.mode(Mode.BLIND_NA);
        GpuSnapshot gpu = roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().getFirst();
        assertEquals(10200, gpu.memUsedMb());
        assertEquals(List.of(new GpuProcess(812, null, "python")), gpu.processes());
    }

    @Test
    void aPrintedNumberIsStillNotTrusted() throws Exception {
        GpuSnapshot gpu = roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().getFirst();
        assertEquals(Attribution.BLIND, gpu.attribution());
        assertEquals(List.of(new GpuProcess(812, null, "python")), gpu.processes());
    }

    @Test
    void aLiveJobIsListedBlindAndItsMemoryGoesWithIt() throws Exception {
        smi.mode(Mode.BLIND);
        Path ready = tmp.resolve("ready");
        Process job = new ProcessBuilder("/bin/sh", "-c",
                smi.allocateSnippet(0, 4000) + " && : >'" + ready + "' && exec sleep 60").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(ready) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            GpuSnapshot gpu = roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().getFirst();
            assertEquals(14200, gpu.memUsedMb());
            assertEquals(List.of(), gpu.processes());
        } finally {
            job.destroyForcibly();
            job.waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(10200, roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().getFirst().memUsedMb());
    }

    @Test
    void failingAndMissing() throws Exception {
        smi.mode(Mode.FAILING);
        assertEquals(GpuReport.failed("nvidia-smi failed (exit 9): " + FakeNvidiaSmi.FAILURE_MESSAGE),
                roundTrip(probe("nvidia-smi"), smi.pathWithFake()));
        assumeFalse(Files.exists(Path.of("/usr/lib/wsl/lib/nvidia-smi")), "a WSL host has the fallback");
        smi.mode(Mode.MISSING);
        assertTrue(roundTrip(probe("nvidia-smi"), smi.binDir().toString()).error()
                .startsWith("nvidia-smi not found on the node (looked for 'nvidia-smi' on the PATH and"
                        + " /usr/lib/wsl/lib/nvidia-smi)"));
    }

    @Test
    void aConfiguredPathWithASpaceAndAQuote() throws Exception {
        FakeNvidiaSmi odd = FakeNvidiaSmi.install("wsl-2", tmp.resolve("Program Files/it's/bin"), tmp.resolve("s2"))
                .gpu(0, "NVIDIA RTX A2000 Laptop GPU", 4096).mode(Mode.BLIND_NA);
        GpuReport report = roundTrip(probe(odd.command().toString()), smi.binDir().toString());
        assertNull(report.error());
        assertEquals(List.of(odd.uuid(0)), report.gpus().stream().map(GpuSnapshot::uuid).toList());
        assertEquals(2, odd.calls());
        assertEquals(0, smi.calls());
    }
}
