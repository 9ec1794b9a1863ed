package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key no one knows, anywhere in the configuration, stops every command at start through the
 * real command line and the real plugins: file, line, key, and the key that was meant.
 */
class ConfigKeysTest {
    private static final Path EXAMPLES = Path.of("../../config-examples");

    @TempDir
    Path tmp;
    Cli cli;
    String configYml;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        Files.createDirectories(cli.nvidbHome());
        configYml = cli.nvidbHome().resolve("config.yml").toString();
    }

    private String refusal(String content) throws Exception {
        cli.write(".nvidb/config.yml", content);
        Cli.Result r = cli.run("job", "ls");
        assertEquals(64, r.exit(), r.toString());
        assertEquals("", r.out());
        return r.err();
    }

    @Test
    void aTypoAnywhereIsAUsageErrorNamingTheKeyMeant() throws Exception {
        assertEquals("error: configuration " + configYml + ", line 1: sevrers is not a known setting (known: queue,"
                + " remote, servers); did you mean servers?\n", refusal("sevrers:\n  - hostname: gpu-box-1\n"));
        String gpuId = refusal("servers:\n  - hostname: gpu-box-1\n    gpu_id: [0]\n");
        assertEquals(true, gpuId.startsWith("error: configuration " + configYml + ", line 3: servers[0].gpu_id is not a"
                + " known setting (known: "), gpuId);
        assertEquals(true, gpuId.endsWith("); did you mean gpu_ids?\n"), gpuId);
        // identityfile is the ssh transport's key, not core's: the plugin vouches for it.
        String identity = refusal("servers:\n  - hostname: gpu-box-1\n    identityfle: ~/.ssh/k\n");
        assertEquals(true, identity.contains("line 3: servers[0].identityfle is not a known setting"), identity);
        assertEquals(true, identity.endsWith("; did you mean identityfile?\n"), identity);
        String remote = refusal("remote:\n  host: queue-host\n  prot: 22\n");
        assertEquals(true, remote.contains("line 3: remote.prot is not a known setting"), remote);
        assertEquals(true, remote.endsWith("; did you mean port?\n"), remote);
        String far = refusal("servers:\n  - hostname: gpu-box-1\n    shoe_size: 44\n");
        assertEquals(true, far.endsWith("job_root, known_hosts, nickname, nvidia_smi, password, port, probe,"
                + " proxy_jump, proxyjump, ssh_config, transport, user, username); remove it\n"), "no guess when none is near: " + far);
    }

    @Test
    void theQueueHostExampleLoadsWithTheRealPlugins() throws Exception {
        cli.write(".nvidb/config.yml", Files.readString(EXAMPLES.resolve("config.yml")));
        Cli.Result r = cli.run("job", "ls", "--json");
        assertEquals(0, r.exit(), r.toString());
    }
}
