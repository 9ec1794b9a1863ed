package nvidb.plugins.probe.nvidiasmi;

import static nvidb.plugins.probe.nvidiasmi.Sections.fixture;
import static nvidb.plugins.probe.nvidiasmi.Sections.ok;
import static nvidb.plugins.probe.nvidiasmi.Sections.section;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.GpuSnapshot;
import nvidb.spi.probe.Probe;
import nvidb.spi.probe.ProbeSettings;
import org.junit.jupiter.api.Test;

class NvidiaSmiParseTest {

    static final String UUID0 = "GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11";
    static final String UUID1 = "GPU-0c7d9e2a-41f3-6b58-a0c2-7e8d1f3b5c22";

    final Probe probe = new NvidiaSmiProbeFactory().create(new ProbeSettings("nvidia-smi"));

    @Test
    void readsTheDocumentedOutput() {
        GpuReport report = probe.parse(ok(fixture("documented-gpus.csv"), fixture("documented-apps.csv")));
        assertEquals(new GpuReport(List.of(
                new GpuSnapshot(0, UUID0, "NVIDIA GeForce RTX 3090 Ti", 24564, 10160, 97, 61, 66,
                        Attribution.PROCESSES, List.of(new GpuProcess(48230, 4000, "python"),
                                new GpuProcess(1608997, 6000, "/usr/bin/python3.11"))),
                new GpuSnapshot(1, UUID1, "NVIDIA GeForce RTX 3090 Ti", 24564, 3, 0, 0, 35,
                        Attribution.PROCESSES, List.of())), null), report);
    }

    @Test
    void noProcessLinesMeansNoProcesses() {
        GpuReport report = probe.parse(ok(fixture("documented-gpus.csv"), ""));
        assertNull(report.error());
        assertEquals(2, report.gpus().size());
        report.gpus().forEach(g -> assertEquals(List.of(), g.processes()));
    }

    @Test
    void powerDrawIsWattsWhereReportedAndNullWhereTheDriverSaysNot() {
        GpuReport report = probe.parse(ok("""
                0, %s, NVIDIA H200, 143771, 25269, 99, 30, 57, 612.34
                1, %s, NVIDIA GeForce RTX 3090 Ti, 24564, 3, 0, 0, 35, [N/A]
                2, %s, Tesla K80, 11441, 0, 0, 0, 30, [Not Supported]
                3, %s, Odd, Card, 1, 0, 0, 0, 30, 70 W
                4, %s, Before power.draw, 1, 0, 0, 0, 30
                """.formatted(UUID0, UUID1, "GPU-2", "GPU-3", "GPU-4"), ""));
        assertNull(report.error());
        assertEquals(5, report.gpus().size(), report.toString());
        assertEquals(612.34, report.gpus().get(0).powerW());
        assertNull(report.gpus().get(1).powerW(), "[N/A]");
        assertNull(report.gpus().get(2).powerW(), "[Not Supported]");
        assertEquals("Odd, Card", report.gpus().get(3).name(), "a comma in the name still goes to the name");
        assertEquals(70.0, report.gpus().get(3).powerW());
        assertEquals(30, report.gpus().get(4).temperatureC(), "eight cells: a tool that leaves power.draw out");
        assertNull(report.gpus().get(4).powerW());
    }

    @Test
    void driverWordsInCellsReadAsUnknownNotAsFailure() {
        GpuReport report = probe.parse(ok("""
                0, %s, NVIDIA A100-SXM4-80GB, 81920, [Unknown Error], [N/A], [Not Supported], [Insufficient Permissions]
                1, [N/A], [N/A], [N/A], 12, 5, 1, 40
                """.formatted(UUID0), """
                812, %s, [N/A], python
                813, %s, [Insufficient Permissions], [Insufficient Permissions]
                """.formatted(UUID0, UUID0)));
        assertNull(report.error());
        assertEquals(new GpuSnapshot(0, UUID0, "NVIDIA A100-SXM4-80GB", 81920, null, null, null, null,
                Attribution.PROCESSES, List.of(new GpuProcess(812, null, "python"), new GpuProcess(813, null, null))),
                report.gpus().get(0));
        assertEquals(new GpuSnapshot(1, null, null, null, 12, 5, 1, 40, Attribution.PROCESSES, List.of()),
                report.gpus().get(1));
    }

    @Test
    void garbageLinesAreSkippedAndTheRestIsRead() {
        GpuReport report = probe.parse(ok("""
                index, uuid, name, memory.total [MiB], memory.used [MiB], utilization.gpu [%%], utilization.memory [%%], temperature.gpu
                WARNING: infoROM is corrupted at gpu 0000:01:00.0

                0, %s, Tesla V100-PCIE-16GB, 16160, 1, 0, 0, 31
                1, %s, half a line
                x, GPU-zz, bad index, 1, 2, 3, 4, 5
                """.formatted(UUID0, UUID1), """
                pid, gpu_uuid, used_gpu_memory [MiB], process_name
                not a process line
                abc, %s, 100, bad pid
                77, %s, lots, python train.py --lr 3e-4
                """.formatted(UUID0, UUID0)));
        assertNull(report.error());
        assertEquals(List.of(new GpuSnapshot(0, UUID0, "Tesla V100-PCIE-16GB", 16160, 1, 0, 0, 31,
                Attribution.PROCESSES, List.of(new GpuProcess(77, null, "python train.py --lr 3e-4")))), report.gpus());
    }

    @Test
    void processesJoinGpusByUuidNotIndexAndStrangersAreDropped() {
        GpuReport report = probe.parse(ok("""
                3, %s, NVIDIA H100 80GB HBM3, 81559, 2000, 10, 2, 50
                7, %s, NVIDIA H100 80GB HBM3, 81559, 1000, 10, 2, 50
                """.formatted(UUID0, UUID1), """
                10, %s, 1000, b
                11, %s, 2000, a
                12, GPU-00000000-0000-0000-0000-000000000000, 500, elsewhere
                13, 3, 500, index-not-uuid
                """.formatted(UUID1, UUID0)));
        assertEquals(List.of(new GpuProcess(11, 2000, "a")), report.gpus().get(0).processes());
        assertEquals(List.of(new GpuProcess(10, 1000, "b")), report.gpus().get(1).processes());
    }

    @Test
    void namesKeepSpacesParenthesesAndEvenCommas() {
        GpuReport report = probe.parse(ok("""
                0, %s, NVIDIA RTX A6000 (rev, b), 49140, 5, 0, 0, 30
                """.formatted(UUID0), """
                5, %s, 300, /opt/run, with comma/python (3.12)
                """.formatted(UUID0)));
        GpuSnapshot gpu = report.gpus().getFirst();
        assertEquals("NVIDIA RTX A6000 (rev, b)", gpu.name());
        assertEquals(49140, gpu.memTotalMb());
        assertEquals(List.of(new GpuProcess(5, 300, "/opt/run, with comma/python (3.12)")), gpu.processes());
    }

    @Test
    void unitsAndCarriageReturnsAreTolerated() {
        GpuReport report = probe.parse(ok("0, %s, Tesla T4, 15360 MiB, 100 MiB, 7 %%, 3 %%, 45\r\n".formatted(UUID0),
                "9, %s, 90 MiB, python\r\n".formatted(UUID0)).replace("\n", "\r\n"));
        assertEquals(List.of(new GpuSnapshot(0, UUID0, "Tesla T4", 15360, 100, 7, 3, 45, Attribution.PROCESSES,
                List.of(new GpuProcess(9, 90, "python")))), report.gpus());
    }

    @Test
    void aFailingToolGivesItsFirstLine() {
        GpuReport report = probe.parse(section("9", fixture("driver-failure.txt"), "skipped", ""));
        assertEquals(GpuReport.failed("nvidia-smi failed (exit 9): " + fixture("driver-failure.txt").strip()), report);
    }

    @Test
    void noDevicesIsAFailureWithTheToolsWords() {
        assertEquals(GpuReport.failed("nvidia-smi failed (exit 6): No devices were found"),
                probe.parse(section("6", "No devices were found\n", "skipped", "")));
    }

    @Test
    void aMissingToolSaysWhatWasLookedForAndHowToFixIt() {
        GpuReport dash = probe.parse(section("127", "sh: 14: nvidia-smi: not found\n", "skipped", ""));
        assertEquals(List.of(), dash.gpus());
        assertEquals("nvidia-smi not found on the node (looked for 'nvidia-smi' on the PATH and"
                + " /usr/lib/wsl/lib/nvidia-smi); install the NVIDIA driver or set nvidia_smi: in the server entry"
                + " to its path", dash.error());

        Probe custom = new NvidiaSmiProbeFactory().create(new ProbeSettings("/opt/nv/bin/nvidia-smi"));
        String error = custom.parse(section("127",
                "timeout: failed to run command '/opt/nv/bin/nvidia-smi': No such file or directory\n", "skipped", ""))
                .error();
        assertTrue(error.startsWith("nvidia-smi not found on the node (looked for '/opt/nv/bin/nvidia-smi')"), error);
        assertTrue(error.contains("nvidia_smi:"), error);

        Probe sudo = new NvidiaSmiProbeFactory().create(new ProbeSettings("sudo -n nvidia-smi"));
        assertTrue(sudo.parse(section("1", "sudo: nvidia-smi: command not found\n", "skipped", "")).error()
                .startsWith("nvidia-smi not found on the node (looked for 'sudo -n nvidia-smi')"));
    }

    @Test
    void aHangIsReportedAsSuch() {
        assertEquals("nvidia-smi did not answer within 10 s (a wedged GPU or driver?)",
                probe.parse(section("124", "", "skipped", "")).error());
    }

    @Test
    void aFailingProcessQueryKeepsTheGpusAndSaysWhy() {
        GpuReport report = probe.parse(section("0", fixture("documented-gpus.csv"), "124", ""));
        assertEquals(2, report.gpus().size());
        report.gpus().forEach(g -> assertEquals(List.of(), g.processes()));
        assertEquals("nvidia-smi --query-compute-apps did not answer within 10 s (a wedged GPU or driver?);"
                + " GPUs listed without their processes", report.error());
    }

    @Test
    void cutShortOrForeignOutputFailsWithoutThrowing() {
        String whole = ok(fixture("documented-gpus.csv"), fixture("documented-apps.csv"));
        assertTrue(probe.parse(whole.substring(0, whole.indexOf("@@nvidb-gpus-end"))).error().contains("cut short"));
        assertTrue(probe.parse(whole.substring(0, whole.indexOf("@@nvidb-apps"))).error().contains("cut short"));
        assertTrue(probe.parse("").error().contains("no @@nvidb-gpus section"));
        assertTrue(probe.parse(null).error().contains("no @@nvidb-gpus section"));
        assertTrue(probe.parse("garbage\n\u0000\n@@nvidb-gpus rc=\n").error().contains("no @@nvidb-gpus section"));
    }

    @Test
    void anEmptyGpuListIsNotAnError() {
        assertEquals(new GpuReport(List.of(), null), probe.parse(ok("", "")));
    }

    @Test
    void surroundingTextIsIgnored() {
        GpuReport report = probe.parse("NVIDB_PROBE_V1\nJOB|1|2|3||1|\n"
                + ok(fixture("documented-gpus.csv"), fixture("documented-apps.csv")) + "PSTABLE\n 1 1\n");
        assertNull(report.error());
        assertEquals(2, report.gpus().size());
        assertEquals(2, report.gpus().getFirst().processes().size());
    }
}
