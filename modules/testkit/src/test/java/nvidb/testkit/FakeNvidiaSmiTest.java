package nvidb.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.FakeNvidiaSmi.Mode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FakeNvidiaSmiTest {

    static final String GPU_QUERY = "--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu,"
            + "utilization.memory,temperature.gpu";
    static final String APPS_QUERY = "--query-compute-apps=pid,gpu_uuid,used_memory,process_name";
    static final String FORMAT = "--format=csv,noheader,nounits";

    record Result(int rc, String out) {
    }

    @TempDir
    Path tmp;

    FakeNvidiaSmi smi;

    @BeforeEach
    void install() {
        smi = FakeNvidiaSmi.install("gpu1", tmp.resolve("bin"), tmp.resolve("state"));
    }

    /** The two machines of docs/spec/nvidia-smi.md, UUIDs and all. */
    void documentedMachine() {
        smi.gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).uuid(0, "GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11")
                .baseUsed(0, 160).utilization(0, 97).memoryUtilization(0, 61).temperature(0, 66)
                .gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564).uuid(1, "GPU-0c7d9e2a-41f3-6b58-a0c2-7e8d1f3b5c22")
                .baseUsed(1, 3).temperature(1, 35)
                .foreignProcess(48230, 0, 4000, "python")
                .foreignProcess(1608997, 0, 6000, "/usr/bin/python3.11");
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(smi.command().toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return new Result(p.exitValue(), out);
    }

    @Test
    void gpuQueryPrintsTheDocumentedCsvExactly() throws Exception {
        documentedMachine();
        assertEquals(new Result(0, """
                0, GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11, NVIDIA GeForce RTX 3090 Ti, 24564, 10160, 97, 61, 66
                1, GPU-0c7d9e2a-41f3-6b58-a0c2-7e8d1f3b5c22, NVIDIA GeForce RTX 3090 Ti, 24564, 3, 0, 0, 35
                """), run(GPU_QUERY, FORMAT));
    }

    @Test
    void appsQueryPrintsTheDocumentedCsvExactly() throws Exception {
        documentedMachine();
        assertEquals(new Result(0, """
                48230, GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11, 4000, python
                1608997, GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11, 6000, /usr/bin/python3.11
                """), run(APPS_QUERY, FORMAT));
    }

    @Test
    void noProcessesPrintsNoLinesAtAll() throws Exception {
        smi.gpu(0, "Tesla T4", 15360);
        assertEquals(new Result(0, ""), run(APPS_QUERY, FORMAT));
    }

    @Test
    void fieldsComeInTheOrderAskedAndMemoryFreeIsTotalMinusUsed() throws Exception {
        smi.gpu(0, "A100-SXM4-80GB (MIG)", 81920).baseUsed(0, 920).foreignProcess(7, 0, 1000, "x");
        assertEquals(new Result(0, "A100-SXM4-80GB (MIG), 80000, 0\n"),
                run("--query-gpu=name,memory.free,index", FORMAT));
    }

    @Test
    void generatedUuidsAreStableAndDistinct() {
        smi.gpu(0, "g", 1).gpu(1, "g", 1);
        assertTrue(smi.uuid(0).matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
        assertEquals(FakeNvidiaSmi.uuid("gpu1", 0), smi.uuid(0));
        assertNotEquals(smi.uuid(0), smi.uuid(1));
        assertNotEquals(FakeNvidiaSmi.uuid("gpu2", 0), smi.uuid(0));
    }

    @Test
    void unknownCellsReadNotAvailable() throws Exception {
        smi.gpu(0, "NVIDIA A100 80GB PCIe", 81920).utilization(0, null).memoryUtilization(0, null)
                .temperature(0, null);
        assertEquals(new Result(0, "0, " + smi.uuid(0) + ", NVIDIA A100 80GB PCIe, 81920, 0, [N/A], [N/A], [N/A]\n"),
                run(GPU_QUERY, FORMAT));
    }

    @Test
    void anUnknownFieldIsRefusedAsTheRealToolDoes() throws Exception {
        smi.gpu(0, "g", 1);
        assertEquals(new Result(2, "Field \"fan.speed\" is not a valid field to query.\n"),
                run("--query-gpu=index,fan.speed", FORMAT));
        assertEquals(2, run("--query-compute-apps=pid,name", FORMAT).rc());
    }

    @Test
    void otherFormatsAreRefusedRatherThanFaked() throws Exception {
        smi.gpu(0, "g", 1);
        assertEquals(2, run(GPU_QUERY, "--format=csv").rc());
        assertEquals(2, run("-L").rc());
    }

    @Test
    void noGpusIsNoDevicesFound() throws Exception {
        assertEquals(new Result(6, "No devices were found\n"), run(GPU_QUERY, FORMAT));
    }

    @Test
    void gpusCanChangeBetweenCalls() throws Exception {
        smi.gpu(0, "g", 1000);
        assertTrue(run(GPU_QUERY, FORMAT).out().contains(", 1000, 0, "));
        smi.baseUsed(0, 250).gpu(1, "h", 2000);
        assertEquals(2, run(GPU_QUERY, FORMAT).out().lines().count());
        assertTrue(run(GPU_QUERY, FORMAT).out().contains(", 1000, 250, "));
        smi.removeGpu(1).clearForeign();
        assertEquals(1, run(GPU_QUERY, FORMAT).out().lines().count());
    }

    @Test
    void foreignProcessesCountWhetherOrNotTheyLive() throws Exception {
        smi.gpu(0, "g", 10000).gpu(1, "g", 10000).foreignProcess(999_999_999L, 1, 1234, "ghost trainer");
        assertEquals("999999999, " + smi.uuid(1) + ", 1234, ghost trainer\n", run(APPS_QUERY, FORMAT).out());
        assertTrue(run(GPU_QUERY, FORMAT).out().contains("1, " + smi.uuid(1) + ", g, 10000, 1234, "));
        smi.clearForeign();
        assertEquals("", run(APPS_QUERY, FORMAT).out());
    }

    @Test
    void anAllocationIsReportedOnlyWhileItsProcessLives() throws Exception {
        smi.gpu(0, "g", 24000).gpu(1, "g", 24000).baseUsed(1, 10);
        Path ready = tmp.resolve("ready");
        Process job = new ProcessBuilder("sh", "-c",
                smi.allocateSnippet(1, 6000) + "; " + smi.allocateSnippet(0, 500) + "; : >'" + ready + "'; exec sleep 60")
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(ready) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(job.pid() + ", " + smi.uuid(0) + ", 500, python\n"
                    + job.pid() + ", " + smi.uuid(1) + ", 6000, python\n", run(APPS_QUERY, FORMAT).out());
            String gpus = run(GPU_QUERY, FORMAT).out();
            assertTrue(gpus.contains("0, " + smi.uuid(0) + ", g, 24000, 500, "), gpus);
            assertTrue(gpus.contains("1, " + smi.uuid(1) + ", g, 24000, 6010, "), gpus);
        } finally {
            job.destroyForcibly();
            job.waitFor(10, TimeUnit.SECONDS);
        }
        // The JVM reaps its children asynchronously; a zombie counts as dead for the fake anyway.
        assertEquals("", run(APPS_QUERY, FORMAT).out());
        assertTrue(run(GPU_QUERY, FORMAT).out().contains("1, " + smi.uuid(1) + ", g, 24000, 10, "));
        try (var files = Files.list(smi.stateDir().resolve("alloc"))) {
            assertEquals(0, files.count(), "a dead allocation is forgotten");
        }
    }

    @Test
    void javaAllocationsFollowTheGivenPid() throws Exception {
        smi.gpu(0, "g", 24000);
        long me = ProcessHandle.current().pid();
        smi.allocate(me, 0, 700, "java trainer");
        assertEquals(me + ", " + smi.uuid(0) + ", 700, java trainer\n", run(APPS_QUERY, FORMAT).out());
        smi.clearAllocations();
        assertEquals("", run(APPS_QUERY, FORMAT).out());
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        smi.allocate(dead.pid(), 0, 700);
        assertEquals("", run(APPS_QUERY, FORMAT).out());
    }

    @Test
    void blindModeKeepsMemoryButListsNoProcess() throws Exception {
        documentedMachine();
        smi.mode(Mode.BLIND);
        assertEquals(new Result(0, ""), run(APPS_QUERY, FORMAT));
        assertTrue(run(GPU_QUERY, FORMAT).out().contains(", 24564, 10160, 97, 61, 66\n"));
    }

    @Test
    void blindNaModeListsProcessesWithoutMemory() throws Exception {
        documentedMachine();
        smi.mode(Mode.BLIND_NA);
        assertEquals(new Result(0, """
                48230, GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11, [N/A], python
                1608997, GPU-5b1e6f0c-2c4d-8a7e-3f11-9d2b7c4e0a11, [N/A], /usr/bin/python3.11
                """), run(APPS_QUERY, FORMAT));
        assertTrue(run(GPU_QUERY, FORMAT).out().contains(", 24564, 10160, "));
    }

    @Test
    void failingModePrintsTheDriverSentenceAndExitsNine() throws Exception {
        documentedMachine();
        smi.mode(Mode.FAILING);
        assertEquals(new Result(9, FakeNvidiaSmi.FAILURE_MESSAGE + "\n"), run(GPU_QUERY, FORMAT));
        assertEquals(9, run(APPS_QUERY, FORMAT).rc());
        smi.mode(Mode.NORMAL);
        assertEquals(0, run(GPU_QUERY, FORMAT).rc());
    }

    @Test
    void missingModeRemovesTheCommandAndNormalBringsItBack() throws Exception {
        documentedMachine();
        smi.mode(Mode.MISSING);
        assertFalse(Files.exists(smi.command()));
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "nvidia-smi " + GPU_QUERY + " " + FORMAT)
                .redirectErrorStream(true);
        pb.environment().put("PATH", smi.binDir() + ":/usr/bin:/bin");
        assertEquals(127, pb.start().waitFor());
        smi.mode(Mode.NORMAL);
        assertTrue(Files.isExecutable(smi.command()));
        assertEquals(0, pb.start().waitFor());
    }

    @Test
    void everyCallIsCounted() throws Exception {
        smi.gpu(0, "g", 1);
        assertEquals(0, smi.calls());
        run(GPU_QUERY, FORMAT);
        run(APPS_QUERY, FORMAT);
        smi.mode(Mode.FAILING);
        run(GPU_QUERY, FORMAT);
        assertEquals(3, smi.calls());
        assertEquals(List.of(GPU_QUERY + " " + FORMAT, APPS_QUERY + " " + FORMAT, GPU_QUERY + " " + FORMAT),
                smi.callArguments());
        smi.resetCalls();
        assertEquals(0, smi.calls());
    }

    @Test
    void worksFromFoldersWithSpacesAndQuotes() throws Exception {
        smi = FakeNvidiaSmi.install("n", tmp.resolve("my bin's"), tmp.resolve("it's state"));
        smi.gpu(0, "g", 100);
        assertEquals(0, run(GPU_QUERY, FORMAT).rc());
        Process job = new ProcessBuilder("sh", "-c", smi.allocateSnippet(0, 5) + " && exec sleep 60").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (run(APPS_QUERY, FORMAT).out().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(job.pid() + ", " + smi.uuid(0) + ", 5, python\n", run(APPS_QUERY, FORMAT).out());
        } finally {
            job.destroyForcibly();
            job.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void isFastEnoughToRunEveryPass() throws Exception {
        documentedMachine();
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertEquals(0, run(GPU_QUERY, FORMAT).rc());
        }
        long perCallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) / 20;
        assertTrue(perCallMs < 200, "a call took " + perCallMs + " ms");
    }
}
