import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import nvidb.core.node.NodeProbeScript;
import nvidb.plugins.probe.nvidiasmi.NvidiaSmiProbe;
import nvidb.spi.probe.Attribution;

/**
 * Writes the probe's scripts as a pass would send them, for capture.sh:
 * {@code java -cp plugins/probe-nvidia-smi/target/classes:modules/core/target/classes:modules/spi/target/classes bench/gpu/GenerateProbeScripts.java bench/gpu}
 */
public class GenerateProbeScripts {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : ".");
        NvidiaSmiProbe probe = new NvidiaSmiProbe("nvidia-smi", Attribution.PROCESSES);
        Files.writeString(dir.resolve("gpu-section.sh"), probe.script());
        Files.writeString(dir.resolve("free-memory.sh"), probe.freeMemoryScript());
        NodeProbeScript round = new NodeProbeScript("@@nvidb-h200fixture0");
        Files.writeString(dir.resolve("probe.sh"),
                round.script(probe.script(), List.of(new NodeProbeScript.JobDir(7, "/tmp/nvidb-jobs/7"))));
    }
}
