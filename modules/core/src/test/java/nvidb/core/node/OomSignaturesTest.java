package nvidb.core.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each framework's real out-of-memory message (the fixtures under {@code oom/}, as their sources
 * print them) is found by the node's probe in the end of a failed job's stderr, and nothing else
 * is: the probe runs for real, in sh, over a job directory.
 */
class OomSignaturesTest {
    @TempDir
    Path tmp;

    private static String fixture(String name) throws IOException {
        try (InputStream in = OomSignaturesTest.class.getResourceAsStream("oom/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Runs the probe over one failed job's directory whose stderr is {@code stderr}; returns its oom line. */
    private String probe(String stderr, int exitCode, List<String> signatures) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("job-" + System.nanoTime()));
        Files.writeString(dir.resolve("exit_code"), exitCode + " 1733540000\n");
        Files.writeString(dir.resolve("stderr.log"), stderr);
        NodeProbeScript probe = new NodeProbeScript();
        String script = probe.script("echo gpu", List.of(new NodeProbeScript.JobDir(5, dir.toString())), signatures);
        Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return probe.parse(out).jobs().get(5L).oomLine();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "pytorch.txt, torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.",
        "pytorch-1.x.txt, RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "cuda-runtime.txt, alloc.cu:17: cudaMalloc(&buffer, bytes) failed: cudaErrorMemoryAllocation: out of memory",
        "cublas.txt, RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "cudnn.txt, RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED",
        "tensorflow.txt, tensorflow.python.framework.errors_impl.ResourceExhaustedError:",
        "jax.txt, jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate",
    })
    void eachFrameworksMessageIsFoundByTheProbe(String file, String lineStart) throws Exception {
        String text = fixture(file);
        String found = probe(text, 1, OomSignatures.with(List.of()));
        assertTrue(found != null && found.startsWith(lineStart), file + ": " + found);
        String java = OomSignatures.find(OomSignatures.builtIn(), text);
        assertEquals(java.length() > 400 ? java.substring(0, 400) : java, found, "the probe and the Java check agree");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"not-oom-device-assert.txt", "not-oom-nan.txt"})
    void otherFailuresAreNotOutOfMemory(String file) throws Exception {
        assertNull(probe(fixture(file), 1, OomSignatures.with(List.of())));
        assertNull(OomSignatures.find(OomSignatures.builtIn(), fixture(file)));
    }

    @Test
    void onlyTheEndOfStderrIsSearchedAndOnlyForAFailure() throws Exception {
        String noise = "step 1 loss 0.5\n".repeat(8192); // 128 KiB
        String line = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.";
        assertEquals(line, probe(noise + line + "\n", 1, OomSignatures.with(List.of())));
        assertNull(probe(line + "\n" + noise, 1, OomSignatures.with(List.of())), "beyond the last 64 KiB");
        assertNull(probe(line + "\n", 0, OomSignatures.with(List.of())), "a job that succeeded did not fail of it");
    }

    @Test
    void aSitesOwnSignatureIsFoundAndASignatureIsPlainText() throws Exception {
        String own = "LabAlloc: GPU pool [a100] exhausted (*)";
        assertEquals("ERROR " + own, probe("ERROR " + own + "\n", 3, OomSignatures.with(List.of(own))));
        assertNull(probe("ERROR LabAlloc: GPU pool xa100x exhausted (x)\n", 3, OomSignatures.with(List.of(own))),
                "brackets and stars are not patterns");
        assertEquals(OomSignatures.builtIn().size() + 1, OomSignatures.with(List.of(own, " ", own)).size(),
                "blank and repeated ones are dropped");
    }

    @Test
    void aLongLineIsCutToFourHundredBytes() throws Exception {
        String line = "CUDA out of memory " + "x".repeat(2000);
        assertEquals(line.substring(0, 400), probe(line + "\n", 1, OomSignatures.with(List.of())));
    }
}
