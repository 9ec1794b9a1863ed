package nvidb.plugins.probe.nvidiasmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
class NvidiaSmiScriptTest {

    @TempDir
    Path tmp;

    FakeNvidiaSmi smi;

    @BeforeEach
    void fake() {
        smi = FakeNvidiaSmi.install("node-a", tmp.resolve("bin"), tmp.resolve("state"))
                .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).baseUsed(0, 160).utilization(0, 97)
                .memoryUtilization(0, 61).temperature(0, 66)
                .gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564).baseUsed(1, 3).temperature(1, 35)
                .foreignProcess(48230, 0, 4000, "python")
                .foreignProcess(1608997, 0, 6000, "/usr/bin/python3.11");
    }

    static Probe probe(String command) {
        return new NvidiaSmiProbeFactory().create(new ProbeSettings(command));
    }

    /** Runs {@code script} with {@code sh -c}, PATH as given, {@code stdin} fed in. */
    static String sh(String script, String path, String stdin, String... shellOptions) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("/bin/sh"));
        cmd.addAll(List.of(shellOptions));
        cmd.addAll(List.of("-c", script));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", path);
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        } catch (IOException ignored) {
            // the script may not read stdin at all
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "script hung");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    GpuReport roundTrip(Probe probe, String path) throws Exception {
        return probe.parse(sh(probe.script(), path, ""));
    }

    /** A PATH holding only {@code timeout}, so no nvidia-smi (not even a real one) is found. */
    Path onlyTimeout() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("only-timeout"));
        for (String d : List.of("/usr/bin/timeout", "/bin/timeout")) {
            if (Files.isExecutable(Path.of(d))) {
                Path wrapper = Files.writeString(dir.resolve("timeout"), "#!/bin/sh\nexec " + d + " \"$@\"\n");
                wrapper.toFile().setExecutable(true);
                break;
            }
        }
        return dir;
    }

    @Test
    void theFakesMachineComesBackWithProcessesAttributed() throws Exception {
        GpuReport report = roundTrip(probe("nvidia-smi"), smi.pathWithFake());
        assertEquals(new GpuReport(List.of(
                new GpuSnapshot(0, smi.uuid(0), "NVIDIA GeForce RTX 3090 Ti", 24564, 10160, 97, 61, 66,
                        Attribution.PROCESSES, List.of(new GpuProcess(48230, 4000, "python"),
                                new GpuProcess(1608997, 6000, "/usr/bin/python3.11"))),
                new GpuSnapshot(1, smi.uuid(1), "NVIDIA GeForce RTX 3090 Ti", 24564, 3, 0, 0, 35,
                        Attribution.PROCESSES, List.of())), null), report);
        assertEquals(2, smi.calls(), "one GPU query, one compute-apps query");
    }

    @Test
    void powerDrawComesBackInWattsAndADriverWordAsNone() throws Exception {
        smi.power(0, 312.46).powerWord(1, "[Not Supported]");
        GpuReport report = roundTrip(probe("nvidia-smi"), smi.pathWithFake());
        assertEquals(312.46, report.gpus().get(0).powerW(), report.toString());
        assertEquals(null, report.gpus().get(1).powerW(), report.toString());
    }

    @Test
    void worksWithoutTimeoutOnThePath() throws Exception {
        Path bin = smi.binDir();
        GpuReport report = roundTrip(probe(smi.command().toString()), bin.toString());
        assertNull(report.error());
        assertEquals(2, report.gpus().size());
    }

    @Test
    void aLiveJobsMemoryIsSeenAndGoneWhenItDies() throws Exception {
        Path ready = tmp.resolve("ready");
        Process job = new ProcessBuilder("/bin/sh", "-c",
                smi.allocateSnippet(1, 8000) + " && : >'" + ready + "' && exec sleep 60").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(ready) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            GpuSnapshot gpu1 = roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().get(1);
            assertEquals(8003, gpu1.memUsedMb());
            assertEquals(List.of(new GpuProcess((int) job.pid(), 8000, "python")), gpu1.processes());
        } finally {
            job.destroyForcibly();
            job.waitFor(10, TimeUnit.SECONDS);
        }
        GpuSnapshot gpu1 = roundTrip(probe("nvidia-smi"), smi.pathWithFake()).gpus().get(1);
        assertEquals(3, gpu1.memUsedMb());
        assertEquals(List.of(), gpu1.processes());
    }

    @Test
    void unknownCellsFromTheToolAreNull() throws Exception {
        smi.utilization(1, null).memoryUtilization(1, null).temperature(1, null).mode(Mode.BLIND_NA);
        GpuReport report = roundTrip(probe("nvidia-smi"), smi.pathWithFake());
        GpuSnapshot gpu1 = report.gpus().get(1);
        assertEquals(java.util.Arrays.asList(null, null, null),
                java.util.Arrays.asList(gpu1.utilPercent(), gpu1.memUtilPercent(), gpu1.temperatureC()));
        assertEquals(List.of(new GpuProcess(48230, null, "python"), new GpuProcess(1608997, null, "/usr/bin/python3.11")),
                report.gpus().get(0).processes());
        assertEquals(Attribution.PROCESSES, report.gpus().get(0).attribution());
    }

    @Test
    void aFailingDriverIsReportedAndTheSecondQuerySkipped() throws Exception {
        smi.mode(Mode.FAILING);
        GpuReport report = roundTrip(probe("nvidia-smi"), smi.pathWithFake());
        assertEquals(GpuReport.failed("nvidia-smi failed (exit 9): " + FakeNvidiaSmi.FAILURE_MESSAGE), report);
        assertEquals(1, smi.calls());
    }

    @Test
    void aCommandNotOnThePathIsMissing() throws Exception {
        assumeFalse(Files.exists(Path.of("/usr/lib/wsl/lib/nvidia-smi")), "a WSL host has the fallback");
        smi.mode(Mode.MISSING);
        String expected = "nvidia-smi not found on the node (looked for 'nvidia-smi' on the PATH and"
                + " /usr/lib/wsl/lib/nvidia-smi); install the NVIDIA driver or set nvidia_smi: in the server entry"
                + " to its path";
        // with timeout (timeout's own "failed to run command", 127) and without (the shell's "not found")
        assertEquals(GpuReport.failed(expected), roundTrip(probe("nvidia-smi"), onlyTimeout() + ":" + smi.binDir()));
        assertEquals(GpuReport.failed(expected), roundTrip(probe("nvidia-smi"), smi.binDir().toString()));
        assertEquals(0, smi.calls());
    }

    @Test
    void aConfiguredPathThatIsMissingIsNamed() throws Exception {
        Path gone = tmp.resolve("no such dir/nvidia-smi");
        GpuReport report = roundTrip(probe(gone.toString()), onlyTimeout().toString());
        assertTrue(report.error().startsWith("nvidia-smi not found on the node (looked for '" + gone + "')"),
                report.error());
    }

    @Test
    void aConfiguredPathWithASpaceAndAQuoteIsOneWord() throws Exception {
        FakeNvidiaSmi odd = FakeNvidiaSmi.install("node-b", tmp.resolve("my gpus/it's here"), tmp.resolve("odd state"))
                .gpu(0, "Tesla T4", 15360).foreignProcess(42, 0, 100, "python");
        GpuReport report = roundTrip(probe(odd.command().toString()), onlyTimeout().toString());
        assertEquals(List.of(new GpuSnapshot(0, odd.uuid(0), "Tesla T4", 15360, 100, 0, 0, 30, Attribution.PROCESSES,
                List.of(new GpuProcess(42, 100, "python")))), report.gpus());
        assertNull(report.error());
        assertEquals(2, odd.calls());
    }

    @Test
    void aCommandLineIsReadByTheNodesShell() throws Exception {
        FakeNvidiaSmi odd = FakeNvidiaSmi.install("node-c", tmp.resolve("my gpus/it's here"), tmp.resolve("odd state"))
                .gpu(0, "Tesla T4", 15360);
        String quoted = "'" + odd.command().toString().replace("'", "'\\''") + "'";
        GpuReport viaEnv = roundTrip(probe("env NVIDB_UNUSED=1 " + quoted), smi.pathWithFake());
        assertNull(viaEnv.error());
        assertEquals(List.of(odd.uuid(0)), viaEnv.gpus().stream().map(GpuSnapshot::uuid).toList());
        GpuReport quotedPath = roundTrip(probe(quoted), onlyTimeout().toString());
        assertEquals(1, quotedPath.gpus().size());
        assertEquals(4, odd.calls());
    }

    @Test
    void aValueWithoutBlanksIsOneQuotedWordNeverShellCode() throws Exception {
        Path marker = tmp.resolve("pwned");
        for (String value : List.of("nvidia-smi;touch${IFS}" + marker, "$(touch${IFS}" + marker + ")",
                "`touch${IFS}" + marker + "`", "nvidia-smi'&&touch${IFS}'" + marker)) {
            GpuReport report = roundTrip(probe(value), smi.pathWithFake());
            assertFalse(Files.exists(marker), value);
            assertTrue(report.error().startsWith("nvidia-smi not found on the node (looked for '" + value + "')"),
                    report.error());
        }
    }

    @Test
    void theFragmentLeavesStdinAloneAndNeverExits() throws Exception {
        for (Mode mode : List.of(Mode.NORMAL, Mode.FAILING, Mode.MISSING)) {
            smi.mode(mode);
            String out = sh(probe("nvidia-smi").script() + "\nread -r line; echo \"after: $line\"\n",
                    smi.pathWithFake(), "still here\n");
            assertTrue(out.endsWith("@@nvidb-gpus-end\nafter: still here\n"), mode + ":\n" + out);
        }
    }

    @Test
    void theFragmentSurvivesSetEu() throws Exception {
        for (Mode mode : List.of(Mode.NORMAL, Mode.FAILING, Mode.MISSING)) {
            smi.mode(mode);
            String out = sh(probe("nvidia-smi").script() + "\necho after\n", smi.pathWithFake(), "", "-eu");
            assertTrue(out.endsWith("@@nvidb-gpus-end\nafter\n"), mode + ":\n" + out);
        }
    }

    @Test
    void theFragmentAsksExactlyTheTwoQueries() throws Exception {
        roundTrip(probe("nvidia-smi"), smi.pathWithFake());
        assertEquals(List.of(SmiSection.GPU_QUERY + " " + SmiSection.FORMAT, SmiSection.APPS_QUERY + " " + SmiSection.FORMAT),
                smi.callArguments());
        assertEquals("--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu,utilization.memory,"
                + "temperature.gpu,power.draw --format=csv,noheader,nounits", smi.callArguments().get(0));
        assertEquals("--query-compute-apps=pid,gpu_uuid,used_memory,process_name --format=csv,noheader,nounits",
                smi.callArguments().get(1));
    }

    @Test
    void onlyTheDefaultCommandFallsBackToWsl() {
        assertTrue(probe("nvidia-smi").script().contains("/usr/lib/wsl/lib/nvidia-smi"));
        assertFalse(probe("/opt/nvidia-smi").script().contains("/usr/lib/wsl/lib/nvidia-smi"));
        assertFalse(probe("nvidia-smi").script().contains("exit"));
    }

    @Test
    void theLaneRunnerFragmentPrintsFreeMemoryPerGpuAndNothingWithoutTheTool() throws Exception {
        String fragment = probe("nvidia-smi").freeMemoryScript();
        // 24564 total: GPU 0 less 160 base and 10000 foreign, GPU 1 less 3 base.
        assertEquals("0 14404\n1 24561\n", sh(fragment, smi.pathWithFake(), ""));
        assertEquals("0 14404\n1 24561\n", sh(probe(smi.command().toString()).freeMemoryScript(), "/usr/bin:/bin", ""),
                "a configured path works without the PATH");
        Path noSmi = onlyTimeout();
        Files.createSymbolicLink(noSmi.resolve("awk"), Path.of(Files.isExecutable(Path.of("/usr/bin/awk")) ? "/usr/bin/awk"
                : "/bin/awk"));
        assertEquals("", sh(fragment, noSmi.toString(), ""), "no tool: no card is measured");
        smi.mode(Mode.FAILING);
        assertEquals("", sh(fragment, smi.pathWithFake(), ""), "a failing driver measures nothing");
        assertFalse(fragment.contains("exit"));
    }
}
