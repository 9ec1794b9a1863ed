package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.api.RemoteSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The commented examples in {@code config-examples/} load as they are and say what the loader
 * does: config.yml lists every queue key with its default, queue.yml is a remote client.
 */
class ConfigExamplesTest {
    /** Maven runs the tests of this module in modules/core. */
    private static final Path EXAMPLES = Path.of("../../config-examples");

    /** reference-cli.md §5.3, less {@code remote} (no default; it belongs in queue.yml). */
    private static final Set<String> QUEUE_KEYS = Set.of("headroom_mb", "max_jobs_per_gpu", "max_cpu_jobs_per_node",
            "placement", "default_vram", "tick_min_interval", "lock_ttl", "probe_timeout", "launch_timeout", "job_root",
            "include_local", "local_node_name", "lane_spool_root", "lane_lookahead", "lane_poll_interval",
            "lane_idle_exit", "burst_after", "backup", "notify", "overrun_margin", "overrun_alert", "idle_util",
            "idle_after", "auto_vram_margin", "auto_vram_first", "oom_retry", "oom_signatures", "admins",
            "users", "fairshare", "fairshare_half_life");

    @TempDir
    Path home;

    private QueueConfig load(String... files) throws IOException {
        for (String f : files) {
            Files.copy(EXAMPLES.resolve(f), home.resolve(f));
        }
        return ConfigLoaderTest.LOADER.load(NvidbPaths.resolve(Map.of("NVIDB_HOME", home.toString()), null));
    }

    @Test
    void theQueueHostExampleLoadsWithEveryDefault() throws IOException {
        QueueConfig c = load("config.yml");
        QueueSettings s = c.settings();
        QueueSettings d = QueueSettings.defaults();
        // Every queue value in the example is the default (notify lists command: null besides).
        assertEquals(d, new QueueSettings(s.headroomMb(), s.maxJobsPerGpu(), s.maxCpuJobsPerNode(), s.placement(),
                s.defaultVramMb(), s.tickMinInterval(), s.lockTtl(), s.probeTimeout(), s.launchTimeout(), s.jobRoot(),
                s.includeLocal(), s.localNodeName(), s.laneSpoolRoot(), s.laneLookahead(), s.lanePollInterval(),
                s.laneIdleExit(), s.burstAfter(), s.backup(), d.notifySettings(), s.webListen(), s.learning(), s.admins(),
                s.lab()));
        for (Map.Entry<String, Object> e : d.notifySettings().entrySet()) {
            assertEquals(e.getValue(), s.notifySettings().get(e.getKey()), "notify." + e.getKey());
        }
        assertNull(s.notifySettings().get("command"));
        assertNull(c.remote());

        assertEquals(List.of("gpu-box-1", "bob@gpu-box-2.lab.example:2222"),
                c.servers().stream().map(ServerConfig::name).toList());
        ServerConfig one = c.servers().get(0);
        assertEquals("gpu-box-1.lab.example", one.hostname());
        assertEquals(22, one.port());
        assertEquals("alice", one.username());
        assertEquals(List.of(0, 1), one.gpuIds());
        assertEquals("/usr/bin/nvidia-smi", one.nvidiaSmi());
        assertEquals("/scratch/alice/nvidb-jobs", one.jobRoot());
        assertEquals("nvidia-smi", one.probe());
        assertEquals("ssh", one.transport());
        assertEquals("key", one.options().get("auth"));
        assertEquals("strict", one.options().get("host_key_check"));
        assertEquals("~/.ssh/id_ed25519", one.options().get("identityfile"));
        ServerConfig two = c.servers().get(1);
        assertNull(two.gpuIds());
        assertEquals("accept-new", two.options().get("host_key_check"));
        assertEquals("bastion.lab.example", two.options().get("proxyjump"));
        assertNull(two.options().get("auth"), "no auth: the ssh transport's default");
    }

    @Test
    void theClientExampleLiesOverTheQueueHostExample() throws IOException {
        QueueConfig c = load("config.yml", "queue.yml");
        int remoteLine = Files.readAllLines(EXAMPLES.resolve("queue.yml")).indexOf("remote:") + 1;
        assertEquals(new RemoteSettings("gpu-queue.lab.example", 22, "alice", "/home/alice/.local/bin/nvidb",
                "/srv/nvidb", true, List.of("ConnectTimeout=10", "ServerAliveInterval=30"),
                home.resolve("queue.yml") + ", line " + remoteLine), c.remote());
        assertEquals(2, c.settings().maxJobsPerGpu(), "queue.yml overrides");
        assertEquals(512, c.settings().headroomMb(), "config.yml stands where queue.yml is silent");
        assertEquals(false, c.settings().notifySettings().get("desktop"));
        assertEquals(true, c.settings().notifySettings().get("log"), "notify merged one level deeper");
        assertEquals(2, c.servers().size(), "queue.yml has no servers: config.yml's stand");
    }

    @Test
    void theClientExampleAloneIsValid() throws IOException {
        QueueConfig c = load("queue.yml");
        assertEquals("gpu-queue.lab.example", c.remote().host());
        assertEquals(2, c.settings().maxJobsPerGpu());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theQueueHostExampleListsEveryQueueKey() throws IOException {
        String text = Files.readString(EXAMPLES.resolve("config.yml"));
        Map<String, Object> root = new Yaml().load(text);
        Map<String, Object> queue = (Map<String, Object>) root.get("queue");
        assertEquals(new TreeSet<>(QUEUE_KEYS), new TreeSet<>(queue.keySet()));
        assertEquals(Set.of("enabled", "interval_hours", "keep", "directory"),
                ((Map<String, Object>) queue.get("backup")).keySet());
        assertEquals(Set.of("enabled", "desktop", "log", "command", "webhook", "min_severity"),
                ((Map<String, Object>) queue.get("notify")).keySet());
        assertTrue(text.contains("# remote:"), "remote: is mentioned where it belongs");
        // Each key has its one-line comment.
        for (String line : text.lines().toList()) {
            String t = line.strip();
            if (line.startsWith("  ") && !t.startsWith("#") && !t.startsWith("-") && t.contains(":")
                    && text.indexOf("\nqueue:") < text.indexOf(line)) {
                assertTrue(t.contains("#"), "no comment: " + line);
            }
        }
        Map<String, Object> client = new Yaml().load(Files.readString(EXAMPLES.resolve("queue.yml")));
        assertEquals(Set.of("host", "port", "username", "nvidb", "nvidb_home", "keeper", "ssh_options"),
                ((Map<String, Object>) client.get("remote")).keySet());
        assertFalse(client.containsKey("servers"));
    }
}
