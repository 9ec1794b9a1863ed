package nvidb.plugins.probe.wsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * SmiSection is copied into both probe plugins (plugins may not share code); the copies must
 * stay identical but for the package line.
 */
class SmiSectionTwinTest {

    @Test
    void theTwinInProbeNvidiaSmiIsIdenticalButForThePackage() throws Exception {
        Path mine = Path.of("src/main/java/nvidb/plugins/probe/wsl/SmiSection.java");
        Path twin = Path.of("../probe-nvidia-smi/src/main/java/nvidb/plugins/probe/nvidiasmi/SmiSection.java");
        assumeTrue(Files.exists(mine) && Files.exists(twin), "run from plugins/probe-wsl in a full checkout");
        assertEquals(Files.readString(twin).replaceFirst("(?m)^package nvidb\\.plugins\\.probe\\.nvidiasmi;",
                "package nvidb.plugins.probe.wsl;"), Files.readString(mine),
                "plugins/probe-wsl's SmiSection.java has drifted from plugins/probe-nvidia-smi's; copy the change over");
    }
}
