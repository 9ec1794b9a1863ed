package nvidb.plugins.probe.nvidiasmi;

import static nvidb.plugins.probe.nvidiasmi.Sections.fixture;
import static nvidb.plugins.probe.nvidiasmi.Sections.ok;
import static nvidb.plugins.probe.nvidiasmi.Sections.section;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import nvidb.plugins.probe.wsl.WslProbeFactory;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.GpuSnapshot;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeSettings;
import org.junit.jupiter.api.Test;

class WslParseTest {

    static final String UUID0 = "GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11";
    static final String UUID1 = "GPU-0c7d9e2a-41f3-6b58-a0c2-7e8d1f3b5c22";

    final Probe probe = new WslProbeFactory().create(new ProbeSettings("nvidia-smi"));

    @Test
    void everyGpuIsBlindAndNoProcessHasMemoryEvenWhenANumberIsPrinted() {
        GpuReport report = probe.parse(ok(fixture("documented-gpus.csv"), fixture("documented-apps.csv")));
        assertEquals(new GpuReport(List.of(
                new GpuSnapshot(0, UUID0, "NVIDIA GeForce RTX 3090 Ti", 24564, 10160, 97, 61, 66,
                        Attribution.BLIND, List.of(new GpuProcess(48230, null, "python"),
                                new GpuProcess(1608997, null, "/usr/bin/python3.11"))),
                new GpuSnapshot(1, UUID1, "NVIDIA GeForce RTX 3090 Ti", 24564, 3, 0, 0, 35,
                        Attribution.BLIND, List.of())), null), report);
    }

    @Test
    void formANoProcessesAlthoughMemoryIsUsed() {
        GpuReport report = probe.parse(ok("0, %s, NVIDIA GeForce RTX 4090, 24564, 23122, [N/A], [N/A], 52\n"
                .formatted(UUID0), ""));
        assertEquals(List.of(new GpuSnapshot(0, UUID0, "NVIDIA GeForce RTX 4090", 24564, 23122, null, null, 52,
                Attribution.BLIND, List.of())), report.gpus());
        assertNull(report.error());
    }

    @Test
    void formBProcessesWithoutMemory() {
        GpuReport report = probe.parse(ok("0, %s, NVIDIA GeForce RTX 4090, 24564, 23122, 99, 80, 70\n".formatted(UUID0),
                "812, %s, [N/A], python\n9, GPU-elsewhere, [N/A], dropped\n".formatted(UUID0)));
        assertEquals(List.of(new GpuProcess(812, null, "python")), report.gpus().getFirst().processes());
        assertEquals(Attribution.BLIND, report.gpus().getFirst().attribution());
    }

    @Test
    void missingNamesTheWslPathAndTheSetting() {
        assertEquals(GpuReport.failed("nvidia-smi not found on the node (looked for 'nvidia-smi' on the PATH and"
                + " /usr/lib/wsl/lib/nvidia-smi); install the NVIDIA driver or set nvidia_smi: in the server entry"
                + " to its path"), probe.parse(section("127", "sh: 3: nvidia-smi: not found\n", "skipped", "")));
    }

    @Test
    void failingGivesTheToolsWords() {
        assertEquals(GpuReport.failed("nvidia-smi failed (exit 9): " + fixture("driver-failure.txt").strip()),
                probe.parse(section("9", fixture("driver-failure.txt"), "skipped", "")));
    }

    @Test
    void garbageNeverThrows() {
        assertEquals("the GPU probe printed no @@nvidb-gpus section (output cut short?)", probe.parse("\0\0").error());
        GpuReport report = probe.parse(ok("oops\n0, " + UUID0 + ", x\n1, " + UUID1 + ", g, a, b, c, d, e\n",
                "zz, " + UUID1 + ", 1, q\n"));
        assertEquals(List.of(new GpuSnapshot(1, UUID1, "g", null, null, null, null, null, Attribution.BLIND,
                List.of())), report.gpus());
    }
}
