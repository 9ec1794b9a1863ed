package nvidb.core.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The whole probe round trip ({@code probe.sh} with the nvidia-smi plugin's GPU section, marker
 * {@code @@nvidb-h200fixture0}, asked about job 7 in {@code /tmp/nvidb-jobs/7}) as it ran on a real
 * NVIDIA H200 node on 2026-12-04, stdout kept byte for byte in {@code h200-probe.txt}. Two PyTorch
 * processes held memory (pids 441 and 442, each its own session); job 7's directory named pid 441,
 * which runs no {@code run.sh}, so the probe must not count it as the job's.
 */
class RealH200ProbeTest {

    @Test
    void theRealAnswerSplitsIntoNodeFactsProcessesGpuSectionAndJobState() throws IOException {
        NodeReport report = new NodeProbeScript("@@nvidb-h200fixture0").parse(capture());
        assertEquals("6.18.44-fc-v1252-gpu", report.kernel());
        assertEquals("/root", report.home());

        NodeReport.ProcessRow busy = report.processes().get(441);
        assertEquals(new NodeReport.ProcessRow(441, 441, "root",
                "python3 /work/main/.gpu/hold.py 20 busy /tmp/ready-a 60"), busy);
        assertEquals(442, report.processes().get(442).pgid());
        // kernel threads have pgid 0 and bracketed names; they are rows like any other
        assertEquals("[UVM GPU1 BH]", report.processes().get(497).command());

        assertTrue(report.gpuOutput().startsWith("@@nvidb-gpus rc=0\n0, GPU-651b0777-b15d-7a86-5cf1-a3e74db35b96, NVIDIA H200, 143771, 25269, 99, 30, 57\n"),
                report.gpuOutput());
        assertTrue(report.gpuOutput().contains("441, GPU-651b0777-b15d-7a86-5cf1-a3e74db35b96, 21444, python3\n"));
        assertTrue(report.gpuOutput().endsWith("@@nvidb-gpus-end\n"));

        NodeReport.JobDirState job = report.jobs().get(7L);
        assertEquals(441, job.pid());
        assertEquals(441, job.pgid());
        assertFalse(job.alive(), "pid 441 runs no run.sh of job 7: it is not the job's process");
        assertEquals(null, job.exitCode());
    }

    private static String capture() throws IOException {
        try (InputStream in = RealH200ProbeTest.class.getResourceAsStream("h200-probe.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
