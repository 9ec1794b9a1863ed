package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;
import nvidb.core.plugins.PluginRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** config.yml and queue.yml into one configuration: defaults, types, precedence, and every error. */
class ConfigLoaderTest {
    static final ConfigLoader LOADER = new ConfigLoader(StubPlugins.builtinNames());

    @TempDir
    Path home;

    private NvidbPaths paths() {
        return paths(home);
    }

    private Path write(String name, String... lines) throws IOException {
        return write(home, name, lines);
    }

    /** The paths of an nvidb home that is also the user's home. */
    static NvidbPaths paths(Path home) {
        return NvidbPaths.resolve(Map.of("NVIDB_HOME", home.toString(), "HOME", home.toString()), null);
    }

    /** Writes {@code lines} as the file {@code name} in {@code home}. */
    static Path write(Path home, String name, String... lines) throws IOException {
        Path file = home.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private QueueConfig load() {
        return LOADER.load(paths());
    }

    // ---------------------------------------------------------------- defaults and types

    private static List<String> names(QueueConfig c) {
        return c.servers().stream().map(ServerConfig::name).toList();
    }

    /**
     * What the reference nvidb reads (reference-cli.md §5) loads here too: config.yml's monitor
     * blocks ({@code basic:}, {@code view:}, which that nvidb's TUI rewrites), a backup on every
     * daemon pass, every backup kept, and the floors the reference takes as values.
     */
    @Test
    void aConfigurationTheReferenceReadsLoads() throws IOException {
        write("config.yml",
                "basic:",
                "  compact: false",
                "  remote: false",
                "view:",
                "  mode: nodes",
                "  mouse: true",
                "servers:",
                "  - hostname: gpu.example.com",
                "    port: 22",
                "    username: alice",
                "    nickname: box",
                "    auth: auto",
                "    identityfile: ~/.ssh/id_ed25519",
                "queue:",
                "  lock_ttl: 0",
                "  lane_lookahead: 0",
                "  backup:",
                "    enabled: true",
                "    interval_hours: 0",
                "    keep: 0",
                "    directory: null",
                "  notify:",
                "    desktop: false",
                "    log: true",
                "    command: null");
        QueueConfig c = load();
        assertEquals(List.of("box"), names(c));
        assertEquals(new QueueSettings.BackupSettings(true, 0, 0, null), c.settings().backup());
        assertEquals(0, c.settings().lockTtl());
        assertEquals(180, c.settings().effectiveLockTtl(), "the launch timeout decides the lease, as before");
        assertEquals(0, c.settings().laneLookahead());
    }

    @Test
    void aMonitorBlockInQueueYmlIsStillAMistake() throws IOException {
        Path queue = write("queue.yml", "view:", "  mode: nodes");
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals("configuration " + queue + ", line 1: view is not a known setting (known: nodes, queue, remote,"
                + " servers); remove it", e.getMessage());
    }

    @Test
    void defaultsWhenNoFilesExist() {
        QueueConfig c = load();
        // No servers and no word on include_local: this machine is the one node.
        assertEquals(QueueSettings.defaults().withIncludeLocal(true), c.settings());
        assertEquals(List.of("local"), names(c));
        assertNull(c.remote());
        QueueSettings s = QueueSettings.defaults();
        assertEquals(512, s.headroomMb());
        assertEquals(4, s.maxJobsPerGpu());
        assertEquals(4, s.maxCpuJobsPerNode());
        assertEquals("spread", s.placement());
        assertEquals(0, s.defaultVramMb());
        assertEquals(3.0, s.tickMinInterval());
        assertEquals(180, s.lockTtl());
        assertEquals(25, s.probeTimeout());
        assertEquals(60, s.launchTimeout());
        assertEquals(".nvidb/jobs", s.jobRoot());
        assertFalse(s.includeLocal());
        assertEquals("local", s.localNodeName());
        assertEquals(".nvidb/lanes", s.laneSpoolRoot());
        assertEquals(1, s.laneLookahead());
        assertEquals(3.0, s.lanePollInterval());
        assertEquals(900, s.laneIdleExit());
        assertEquals(new QueueSettings.BackupSettings(false, 24, 7, null), s.backup());
        assertEquals(Map.of("enabled", true, "min_severity", "warning"), s.notifySettings(),
                "core's keys only: each alert sink defaults its own");
        assertEquals(180, s.effectiveLockTtl());
    }

    @Test
    void emptyAndCommentOnlyFilesAreDefaults() throws IOException {
        write("config.yml", "");
        write("queue.yml", "# nothing here yet", "");
        QueueConfig c = load();
        assertEquals(QueueSettings.defaults().withIncludeLocal(true), c.settings());
        assertEquals(List.of("local"), names(c));
        write("config.yml", "queue:", "servers:");
        assertEquals(QueueSettings.defaults().withIncludeLocal(true), load().settings());
    }

    @Test
    void theLocalNodeIsOnlyImpliedWhenNothingElseIsSaid() throws IOException {
        write("config.yml", "queue:", "  include_local: false");
        assertEquals(List.of(), names(load()), "explicitly no local node and no servers: no nodes");
        assertFalse(load().settings().includeLocal());
        write("config.yml", "servers:", "  - nickname: gpu-box-1", "    hostname: gpu-box-1.lab");
        assertEquals(List.of("gpu-box-1"), names(load()), "servers given: include_local defaults to false");
        assertFalse(load().settings().includeLocal());
    }

    @Test
    void everyQueueKeyIsReadWithItsType() throws IOException {
        write("config.yml",
                "queue:",
                "  headroom_mb: 1G",
                "  max_jobs_per_gpu: 2",
                "  max_cpu_jobs_per_node: 0",
                "  placement: pack",
                "  default_vram: 8G",
                "  tick_min_interval: 1.5",
                "  lock_ttl: 300",
                "  probe_timeout: 40",
                "  launch_timeout: 90",
                "  job_root: /scratch/nvidb/jobs",
                "  include_local: true",
                "  local_node_name: workstation",
                "  lane_spool_root: .cache/nvidb-lanes",
                "  lane_lookahead: 2",
                "  lane_poll_interval: 5",
                "  lane_idle_exit: 0",
                "  backup:",
                "    enabled: true",
                "    interval_hours: 6.5",
                "    keep: 3",
                "    directory: snapshots",
                "  notify:",
                "    enabled: false",
                "    desktop: false",
                "    log: false",
                "    command: \"logger -t nvidb\"",
                "    min_severity: error",
                "  remote:",
                "    host: queue-host");
        QueueConfig c = load();
        QueueSettings s = c.settings();
        assertEquals(1024, s.headroomMb());
        assertEquals(2, s.maxJobsPerGpu());
        assertEquals(0, s.maxCpuJobsPerNode());
        assertEquals("pack", s.placement());
        assertEquals(8192, s.defaultVramMb());
        assertEquals(1.5, s.tickMinInterval());
        assertEquals(300, s.lockTtl());
        assertEquals(40, s.probeTimeout());
        assertEquals(90, s.launchTimeout());
        assertEquals("/scratch/nvidb/jobs", s.jobRoot());
        assertTrue(s.includeLocal());
        assertEquals("workstation", s.localNodeName());
        assertEquals(".cache/nvidb-lanes", s.laneSpoolRoot());
        assertEquals(2, s.laneLookahead());
        assertEquals(5.0, s.lanePollInterval());
        assertEquals(0, s.laneIdleExit());
        assertEquals(new QueueSettings.BackupSettings(true, 6.5, 3, "snapshots"), s.backup());
        assertEquals(false, s.notifySettings().get("enabled"));
        assertEquals(false, s.notifySettings().get("desktop"));
        assertEquals(false, s.notifySettings().get("log"));
        assertEquals("logger -t nvidb", s.notifySettings().get("command"));
        assertEquals("error", s.notifySettings().get("min_severity"));
        assertEquals(300, s.effectiveLockTtl());
        assertEquals("queue-host", c.remote().host(), "queue.remote is an alternative place for remote:");
        assertEquals("workstation", c.servers().getLast().name(), "include_local adds the local node");
    }

    @Test
    void sizesMayBePlainMibAndShorthandsAreAccepted() throws IOException {
        write("config.yml",
                "queue:",
                "  headroom_mb: 2048",
                "  default_vram: \"0\"",
                "  backup: true",
                "  notify: false");
        QueueSettings s = load().settings();
        assertEquals(2048, s.headroomMb());
        assertEquals(0, s.defaultVramMb());
        assertEquals(new QueueSettings.BackupSettings(true, 24, 7, null), s.backup());
        assertEquals(false, s.notifySettings().get("enabled"));
        assertNull(s.notifySettings().get("desktop"), "a sink's own key is left to the sink");
    }

    @Test
    void effectiveLockTtlOutlivesTheSlowestRemoteCall() throws IOException {
        write("config.yml", "queue:", "  lock_ttl: 10", "  probe_timeout: 100", "  launch_timeout: 20");
        assertEquals(230, load().settings().effectiveLockTtl());
        write("config.yml", "queue:", "  lock_ttl: 10", "  probe_timeout: 5", "  launch_timeout: 5");
        assertEquals(70, load().settings().effectiveLockTtl());
    }

    // ---------------------------------------------------------------- precedence

    @Test
    void queueYmlLiesOverConfigYml() throws IOException {
        write("config.yml",
                "servers:",
                "  - nickname: gpu-box-1",
                "    hostname: gpu-box-1.lab",
                "  - nickname: gpu-box-2",
                "    hostname: gpu-box-2.lab",
                "queue:",
                "  headroom_mb: 1024",
                "  max_jobs_per_gpu: 2",
                "  placement: pack",
                "  notify:",
                "    desktop: false",
                "    command: \"logger -t nvidb\"",
                "  backup:",
                "    enabled: true",
                "    keep: 3",
                "remote:",
                "  host: only-visible-without-queue-yml");
        write("queue.yml",
                "servers:",
                "  - nickname: gpu-box-9",
                "    hostname: gpu-box-9.lab",
                "queue:",
                "  max_jobs_per_gpu: 3",
                "  notify:",
                "    log: false",
                "  backup:",
                "    interval_hours: 12");
        QueueConfig c = load();
        assertEquals(List.of("gpu-box-9"), c.servers().stream().map(ServerConfig::name).toList(),
                "queue.yml's servers replace config.yml's");
        QueueSettings s = c.settings();
        assertEquals(1024, s.headroomMb(), "kept from config.yml");
        assertEquals("pack", s.placement(), "kept from config.yml");
        assertEquals(3, s.maxJobsPerGpu(), "overridden by queue.yml");
        assertEquals(false, s.notifySettings().get("desktop"), "notify is merged one level deeper");
        assertEquals("logger -t nvidb", s.notifySettings().get("command"));
        assertEquals(false, s.notifySettings().get("log"));
        assertEquals(true, s.notifySettings().get("enabled"));
        assertEquals(new QueueSettings.BackupSettings(false, 12, 7, null), s.backup(), "backup is replaced wholesale");
        assertNull(c.remote(), "config.yml's own remote is not visible once queue.yml has content");
    }

    @Test
    void configYmlServersStandWhenQueueYmlHasNone() throws IOException {
        write("config.yml", "servers:", "  - nickname: gpu-box-1", "    hostname: gpu-box-1.lab");
        write("queue.yml", "queue:", "  headroom_mb: 0");
        QueueConfig c = load();
        assertEquals(List.of("gpu-box-1"), c.servers().stream().map(ServerConfig::name).toList());
        assertEquals(0, c.settings().headroomMb());
    }

    @Test
    void nodesIsASynonymOfServersInQueueYml() throws IOException {
        write("config.yml", "servers:", "  - nickname: gpu-box-1", "    hostname: gpu-box-1.lab");
        write("queue.yml", "nodes:", "  - nickname: gpu-box-2", "    hostname: gpu-box-2.lab");
        assertEquals(List.of("gpu-box-2"), load().servers().stream().map(ServerConfig::name).toList());
    }

    @Test
    void anEmptyServersListInQueueYmlStillReplaces() throws IOException {
        write("config.yml", "servers:", "  - nickname: gpu-box-1", "    hostname: gpu-box-1.lab");
        write("queue.yml", "servers: []", "queue:", "  include_local: false");
        assertEquals(List.of(), load().servers());
        write("queue.yml", "servers: []");
        assertEquals(List.of("local"), names(load()), "an empty list is no servers: the local node is implied");
    }

    @Test
    void remoteComesFromQueueYmlOrFromConfigYmlAlone() throws IOException {
        write("config.yml", "remote:", "  host: queue-host-a");
        assertEquals("queue-host-a", load().remote().host(), "no queue.yml: config.yml as it is");
        write("queue.yml",
                "remote:",
                "  hostname: queue-host-b",
                "  port: 2222",
                "  user: alice",
                "  nvidb: /opt/nvidb/bin/nvidb",
                "  nvidb_home: /srv/nvidb",
                "  keeper: off",
                "  ssh_options: [\"ConnectTimeout=5\", \"ServerAliveInterval=30\"]");
        RemoteSettings r = load().remote();
        String queueYml = home.resolve("queue.yml") + ", line 1";
        assertEquals(new RemoteSettings("queue-host-b", 2222, "alice", "/opt/nvidb/bin/nvidb", "/srv/nvidb", false,
                List.of("ConnectTimeout=5", "ServerAliveInterval=30"), queueYml), r);
        write("queue.yml", "remote:", "  host: queue-host-c");
        assertEquals(new RemoteSettings("queue-host-c", null, null, "nvidb", null, true, List.of(), queueYml),
                load().remote());
        write("queue.yml", "remote:", "  host: \"\"");
        assertNull(load().remote(), "an empty host means no remote");
    }

    @Test
    void queueConfigMayLiveElsewhere() throws IOException {
        Path elsewhere = home.resolve("elsewhere.yml");
        Files.writeString(elsewhere, "queue:\n  headroom_mb: 100\n");
        write("queue.yml", "queue:", "  headroom_mb: 200");
        NvidbPaths p = NvidbPaths.resolve(Map.of("NVIDB_HOME", home.toString(), "NVIDB_QUEUE_CONFIG",
                elsewhere.toString()), null);
        assertEquals(100, LOADER.load(p).settings().headroomMb());
    }

    // ---------------------------------------------------------------- servers

    @Test
    void serverEntriesWithTheirDefaultsAndAliases() throws IOException {
        write("config.yml",
                "servers:",
                "  - nickname: gpu-box-1",
                "    hostname: gpu-box-1.lab",
                "    port: 2222",
                "    username: alice",
                "    auth: key",
                "    identityfile: ~/.ssh/id_ed25519",
                "    proxyjump: bastion.lab",
                "    gpus: [0, 1]",
                "    nvidia_smi: /usr/bin/nvidia-smi",
                "    job_root: /scratch/alice/nvidb-jobs",
                "    host_key_check: accept-new",
                "    probe: nvidia-smi",
                "    transport: ssh",
                "  - description: gpu-box-2",
                "    host: gpu-box-2.lab",
                "    gpu_ids: [2]",
                "  - hostname: gpu-box-3.lab",
                "    user: bob",
                "    port: 2200",
                "  - host: gpu-box-4.lab",
                "    host_key_check: off",
                "  - nickname: wsl-laptop",
                "    transport: local",
                "    probe: wsl");
        List<ServerConfig> servers = load().servers();
        assertEquals(List.of("gpu-box-1", "gpu-box-2", "bob@gpu-box-3.lab:2200", "gpu-box-4.lab:22", "wsl-laptop"),
                servers.stream().map(ServerConfig::name).toList());
        ServerConfig one = servers.get(0);
        assertEquals("gpu-box-1.lab", one.hostname());
        assertEquals(2222, one.port());
        assertEquals("alice", one.username());
        assertEquals(List.of(0, 1), one.gpuIds());
        assertEquals("ssh", one.transport());
        assertEquals("nvidia-smi", one.probe());
        assertEquals("/usr/bin/nvidia-smi", one.nvidiaSmi());
        assertEquals("/scratch/alice/nvidb-jobs", one.jobRoot());
        assertEquals("key", one.options().get("auth"));
        assertEquals("accept-new", one.options().get("host_key_check"));
        assertEquals("~/.ssh/id_ed25519", one.options().get("identityfile"));
        assertEquals("bastion.lab", one.options().get("proxyjump"));

        ServerConfig two = servers.get(1);
        assertEquals("gpu-box-2.lab", two.hostname());
        assertEquals(List.of(2), two.gpuIds(), "gpu_ids: is the reference's name for gpus:");
        assertEquals(22, two.port());
        assertEquals("ssh", two.transport());
        assertNull(two.probe(), "no probe: chosen by the node");
        assertEquals("nvidia-smi", two.nvidiaSmi());
        assertNull(two.jobRoot(), "no job_root: the queue's");
        assertFalse(two.options().containsKey("auth"), "the transport's default, not core's");
        assertFalse(two.options().containsKey("host_key_check"), "the transport's default, not core's");

        assertNull(servers.get(2).gpuIds(), "no gpus: every GPU");
        assertEquals("bob", servers.get(2).username());

        ServerConfig wsl = servers.get(4);
        assertEquals("local", wsl.transport());
        assertEquals("wsl", wsl.probe());
        assertEquals(false, servers.get(3).options().get("host_key_check"),
                "unquoted YAML off reaches the transport as written");
    }

    @Test
    void includeLocalAddsTheLocalNodeLast() throws IOException {
        write("config.yml",
                "servers:",
                "  - nickname: gpu-box-1",
                "    hostname: gpu-box-1.lab",
                "queue:",
                "  include_local: true");
        List<ServerConfig> servers = load().servers();
        assertEquals(List.of("gpu-box-1", "local"), servers.stream().map(ServerConfig::name).toList());
        ServerConfig local = servers.getLast();
        assertEquals("localhost", local.hostname());
        assertEquals("local", local.transport());
        assertNull(local.gpuIds());
    }

    @Test
    void passwordAuthCarriesItsPassword() throws IOException {
        write("config.yml",
                "servers:",
                "  - nickname: gpu-box-1",
                "    hostname: gpu-box-1.lab",
                "    auth: password",
                "    password: s3cret");
        ServerConfig s = load().servers().getFirst();
        assertEquals("password", s.options().get("auth"));
        assertEquals("s3cret", s.options().get("password"));
    }

    // ---------------------------------------------------------------- errors

    /** file, content, the key the error must name, the line it must name. */
    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("config.yml", "queue:\n  headroom_mb: lots\n", "queue.headroom_mb", 2),
                Arguments.of("config.yml", "queue:\n  headroom_mb: 20X\n", "queue.headroom_mb", 2),
                Arguments.of("config.yml", "queue:\n  headroom_mb: [1]\n", "queue.headroom_mb", 2),
                Arguments.of("config.yml", "queue:\n  placement: pack\n  max_jobs_per_gpu: -1\n", "queue.max_jobs_per_gpu", 3),
                Arguments.of("config.yml", "queue:\n  max_jobs_per_gpu: 0\n", "queue.max_jobs_per_gpu", 2),
                Arguments.of("config.yml", "queue:\n  max_jobs_per_gpu: two\n", "queue.max_jobs_per_gpu", 2),
                Arguments.of("config.yml", "queue:\n  lock_ttl: 1.5\n", "queue.lock_ttl", 2),
                Arguments.of("config.yml", "queue:\n  include_local: maybe\n", "queue.include_local", 2),
                Arguments.of("config.yml", "queue:\n  include_local: \"false\"\n", "queue.include_local", 2),
                Arguments.of("config.yml", "queue:\n  tick_min_interval: -1\n", "queue.tick_min_interval", 2),
                Arguments.of("config.yml", "queue:\n  job_root: [a, b]\n", "queue.job_root", 2),
                Arguments.of("config.yml", "queue:\n  headroom_mb: 512\n  headrom_mb: 512\n", "queue.headrom_mb", 3),
                Arguments.of("queue.yml", "queue:\n\n  headrom_mb: 512\n", "queue.headrom_mb", 3),
                Arguments.of("config.yml", "queue:\n  placement: diagonal\n", "queue.placement", 2),
                Arguments.of("config.yml", "queue: 5\n", "queue", 1),
                Arguments.of("config.yml", "queue:\n  backup:\n    keep: -1\n", "queue.backup.keep", 3),
                Arguments.of("config.yml", "queue:\n  backup:\n    interval_hours: -2\n", "queue.backup.interval_hours", 3),
                Arguments.of("config.yml", "queue:\n  backup:\n    every: 3\n", "queue.backup.every", 3),
                Arguments.of("config.yml", "queue:\n  notify:\n    min_severity: info\n", "queue.notify.min_severity", 3),
                Arguments.of("config.yml", "servers: gpu-box-1\n", "servers", 1),
                Arguments.of("queue.yml", "# servers as a mapping\nservers: {gpu-box-1: {hostname: x}}\n", "servers", 2),
                Arguments.of("config.yml", "servers:\n  - gpu-box-1\n", "servers[0]", 2),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    transport: telnet\n", "servers[0].transport", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    probe: dcgm\n", "servers[0].probe", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    port: ssh\n", "servers[0].port", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    gpus: [0, 1]\n    gpu_ids: [0]\n", "servers[0].gpu_ids", 4),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    gpus: [0, -1]\n", "servers[0].gpus", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    gpus: 1\n", "servers[0].gpus", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    gpu_ids: [x]\n", "servers[0].gpu_ids", 3),
                Arguments.of("config.yml", "servers:\n  - nickname: a\n    hostname: x\n  - nickname: a\n    hostname: y\n", "servers[1]", 4),
                Arguments.of("queue.yml", "remote:\n  host: q\n  hots: r\n", "remote.hots", 3),
                Arguments.of("queue.yml", "remote:\n  host: q\n  port: ssh\n", "remote.port", 3),
                Arguments.of("queue.yml", "remote:\n  host: q\n  keeper: maybe\n", "remote.keeper", 3),
                Arguments.of("queue.yml", "remote:\n  host: q\n  ssh_options: ConnectTimeout=5\n", "remote.ssh_options", 3),
                Arguments.of("queue.yml", "remote: q\n", "remote", 1),
                // Unknown keys outside queue: too, wherever they stand.
                Arguments.of("config.yml", "sevrers:\n  - hostname: a\n", "sevrers", 1),
                Arguments.of("queue.yml", "queue:\n  headroom_mb: 0\nnodez: []\n", "nodez", 3),
                Arguments.of("config.yml", "nodes:\n  - hostname: a\n", "nodes", 1),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    gpu_id: [0]\n", "servers[0].gpu_id", 3),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    identityfle: k\n", "servers[0].identityfle", 3),
                Arguments.of("config.yml", "servers:\n  - nickname: a\n    transport: local\n    auth: key\n",
                        "servers[0].auth", 4),
                Arguments.of("config.yml", "queue:\n  notify:\n    desktp: false\n", "queue.notify.desktp", 3),
                Arguments.of("config.yml", "remote:\n  host: q\n  hots: r\n", "remote.hots", 3),
                Arguments.of("config.yml", "queue:\n  remote:\n    hots: r\n", "queue.remote.hots", 3),
                Arguments.of("config.yml", "queue:\n  headroom_mb: 512\n  headroom_mb: 1024\n", "queue.headroom_mb", 3),
                Arguments.of("queue.yml", "queue:\n  notify:\n    log: true\n    log: false\n", "queue.notify.log", 4),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    port: 22\n    port: 23\n", "servers[0].port", 4));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("mistakes")
    void aMistakeNamesTheFileTheLineAndTheKey(String fileName, String content, String key, int line) throws IOException {
        Path file = home.resolve(fileName);
        Files.writeString(file, content);
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals(ErrorCode.USAGE, e.code());
        String m = e.getMessage();
        assertTrue(m.contains(file.toString()), "names the file: " + m);
        assertTrue(m.contains("line " + line + ":") || m.contains("line " + line + " "), "names line " + line + ": " + m);
        assertTrue(m.contains(key), "names the key " + key + ": " + m);
    }

    private String refusal(String fileName, String... lines) throws IOException {
        write(fileName, lines);
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals(ErrorCode.USAGE, e.code());
        return e.getMessage();
    }

    @Test
    void anUnknownKeyAnywhereIsRefusedWithTheNearestKnownKey() throws IOException {
        Path config = home.resolve("config.yml");
        Path queue = home.resolve("queue.yml");
        assertEquals("configuration " + config + ", line 1: sevrers is not a known setting (known: queue, remote,"
                + " servers); did you mean servers?", refusal("config.yml", "sevrers:", "  - hostname: a"));
        assertEquals("configuration " + config + ", line 3: servers[0].gpu_id is not a known setting (known: "
                + String.join(", ", new java.util.TreeSet<>(serverKeys())) + "); did you mean gpu_ids?",
                refusal("config.yml", "servers:", "  - hostname: a", "    gpu_id: [0]"));
        assertTrue(refusal("config.yml", "servers:", "  - hostname: a", "    identityfle: ~/.ssh/k")
                .endsWith("line 3: servers[0].identityfle is not a known setting (known: "
                        + String.join(", ", new java.util.TreeSet<>(serverKeys())) + "); did you mean identityfile?"));
        assertTrue(refusal("config.yml", "queue:", "  headrom_mb: 0").endsWith("; did you mean headroom_mb?"));
        assertTrue(refusal("config.yml", "queue:", "  notify:", "    desktp: false")
                .endsWith("line 3: queue.notify.desktp is not a known setting (known: command, desktop, enabled, log,"
                        + " min_severity, webhook); did you mean desktop?"));
        Files.delete(config);
        assertEquals("configuration " + queue + ", line 3: remote.usr is not a known setting (known: host, hostname,"
                + " keeper, nvidb, nvidb_home, port, ssh_options, user, username); did you mean user?",
                refusal("queue.yml", "remote:", "  host: q", "  usr: alice"));
        // Nothing near: no guess.
        assertEquals("configuration " + queue + ", line 2: remote.colour is not a known setting (known: host,"
                + " hostname, keeper, nvidb, nvidb_home, port, ssh_options, user, username); remove it",
                refusal("queue.yml", "remote:", "  colour: blue", "  host: q"));
        assertTrue(refusal("queue.yml", "servers:", "  - hostname: a", "    shoe_size: 44")
                .endsWith("servers[0].shoe_size is not a known setting (known: "
                        + String.join(", ", new java.util.TreeSet<>(serverKeys())) + "); remove it"));
    }

    /** Core's keys of a server entry and the ssh transport's. */
    private static List<String> serverKeys() {
        List<String> keys = new java.util.ArrayList<>(List.of("transport", "hostname", "host", "port", "username",
                "user", "nickname", "description", "gpus", "gpu_ids", "probe", "nvidia_smi", "job_root"));
        keys.addAll(StubPlugins.SSH_KEYS);
        return keys;
    }

    @Test
    void aRemoteBlockThatIsNotInEffectIsCheckedAllTheSame() throws IOException {
        Path config = write("config.yml", "remote:", "  host: q", "  hots: r");
        write("queue.yml", "queue:", "  headroom_mb: 0");
        NvidbException e = assertThrows(NvidbException.class, this::load, "queue.yml has content: config.yml's remote"
                + " is not used, and still not a place for typos");
        assertTrue(e.getMessage().startsWith("configuration " + config + ", line 3: remote.hots is not a known"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("; did you mean host?"), e.getMessage());
    }

    @Test
    void aPluginOfAnotherKindOrNoneVouchesForNothingAndRefusesNothing() throws IOException {
        write("config.yml", "servers:", "  - hostname: a", "    transport: carrier-pigeon", "    wingspan: 1m");
        QueueConfig c = new ConfigLoader(PluginRegistry.of(List.of())).load(paths());
        assertEquals("1m", c.servers().getFirst().options().get("wingspan"), "no transport installed to ask");
    }

    static Stream<Arguments> brokenYaml() {
        return Stream.of(
                Arguments.of("config.yml", "queue:\n  headroom_mb: 512\n placement: pack\n", 3, "placement"),
                // An unclosed bracket is noticed at the end of the file; the line that opened it is named.
                Arguments.of("queue.yml", "queue:\n  placement: [spread\n", 2, "placement"),
                Arguments.of("config.yml", "servers:\n  - hostname: a\n    port: 22\n   user: bob\n", 4, "user"),
                Arguments.of("queue.yml", "queue:\n  notify: {log: true\n", 2, "notify"),
                Arguments.of("config.yml", "queue:\n\theadroom_mb: 512\n", 2, "headroom_mb"));
    }

    @ParameterizedTest(name = "{0}: broken near {3}")
    @MethodSource("brokenYaml")
    void brokenYamlNamesTheFileAndTheLine(String fileName, String content, int line, String key) throws IOException {
        Path file = home.resolve(fileName);
        Files.writeString(file, content);
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals(ErrorCode.USAGE, e.code());
        String m = e.getMessage();
        assertTrue(m.contains(file.toString()), m);
        assertTrue(m.contains("is not valid YAML"), m);
        assertTrue(m.contains("line " + line), "names line " + line + ": " + m);
        assertTrue(m.contains(key), "shows the key near the mistake: " + m);
    }

    @Test
    void aFileThatIsNotAMappingIsAnError() throws IOException {
        Path file = write("queue.yml", "- gpu-box-1", "- gpu-box-2");
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals(ErrorCode.USAGE, e.code());
        assertTrue(e.getMessage().contains(file + ", line 1"), e.getMessage());
        assertTrue(e.getMessage().contains("must hold a mapping"), e.getMessage());
    }

    @Test
    void namesAreCheckedOnlyAgainstTheGivenPlugins() throws IOException {
        write("config.yml",
                "servers:",
                "  - hostname: a",
                "    transport: carrier-pigeon",
                "    probe: abacus",
                "queue:",
                "  placement: diagonal");
        QueueConfig c = new ConfigLoader(PluginRegistry.of(List.of())).load(paths());
        assertEquals("diagonal", c.settings().placement());
        assertEquals("carrier-pigeon", c.servers().getFirst().transport());
    }
}
