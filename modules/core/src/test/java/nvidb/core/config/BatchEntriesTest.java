package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.NvidbException;
import nvidb.spi.config.ConfigSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server entry whose {@code transport:} names a batch scheduler is a batch partition, reached
 * over the transport its {@code login:} names (ssh unless written): the syntax the slurm node has
 * always had, now read by core for every batch scheduler.
 */
class BatchEntriesTest {
    @TempDir
    Path home;

    private Path write(String... lines) throws IOException {
        return ConfigLoaderTest.write(home, "queue.yml", lines);
    }

    private QueueConfig load() {
        return ConfigLoaderTest.LOADER.load(ConfigLoaderTest.paths(home));
    }

    @Test
    void transportNamingABatchSchedulerMakesABatchPartitionReachedOverItsLogin() throws IOException {
        write("servers:",
                "  - nickname: cluster",
                "    transport: slurm",
                "    hostname: login.cluster.example",
                "    identityfile: ~/.ssh/k",
                "    partition: gpu",
                "    burst: true",
                "  - nickname: here",
                "    transport: slurm",
                "    login: local",
                "    partition: debug",
                "  - hostname: box");
        List<ServerConfig> servers = load().servers();
        assertEquals(new NodeKind.BatchPartition("slurm", "ssh"), servers.get(0).kind(), "login: ssh is the default");
        assertEquals(new NodeKind.BatchPartition("slurm", "local"), servers.get(1).kind());
        assertEquals(new NodeKind.Workstation("ssh"), servers.get(2).kind());
        assertEquals(List.of("slurm", "slurm", "ssh"), servers.stream().map(ServerConfig::transport).toList(),
                "transport() is what the entry says");
        assertEquals("gpu", servers.get(0).options().get("partition"), "the scheduler's keys reach it as written");
    }

    @Test
    void theSchedulerAndTheLoginTransportEachCheckTheEntry() throws IOException {
        write("servers:",
                "  - nickname: cluster",
                "    transport: slurm",
                "    partition: gpu");
        List<String> handed = new ArrayList<>();
        new ConfigLoader(StubPlugins.registry(section -> handed.add(section.path() + " " + section.keys())))
                .load(ConfigLoaderTest.paths(home));
        // queue.notify to the alert sink first; then the entry to the slurm stub and to the ssh one (the login).
        assertEquals(List.of("queue.notify []", "servers[0] [nickname, transport, partition]",
                "servers[0] [nickname, transport, partition]"), handed);
    }

    @Test
    void aLoginThatIsNoTransportAndKeysNoOneKnowsAreRefusedNamingTheKey() throws IOException {
        Path file = write("servers:",
                "  - transport: slurm",
                "    partition: gpu",
                "    login: telnet");
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals("configuration " + file + ", line 4: servers[0].login must be one of local, ssh, not 'telnet'",
                e.getMessage());
        write("servers:",
                "  - transport: slurm",
                "    partition: gpu",
                "    login: local",
                "    identityfile: ~/.ssh/k");
        e = assertThrows(NvidbException.class, this::load);
        assertTrue(e.getMessage().contains("line 5: servers[0].identityfile is not a known setting"),
                "the local login knows no ssh key: " + e.getMessage());
        write("servers:",
                "  - hostname: box",
                "    login: local");
        e = assertThrows(NvidbException.class, this::load);
        assertTrue(e.getMessage().contains("line 3: servers[0].login is not a known setting"),
                "login: is a batch partition's key only: " + e.getMessage());
    }

    @Test
    void transportMayNameATransportOrABatchScheduler() throws IOException {
        Path file = write("servers:", "  - hostname: box", "    transport: telnet");
        NvidbException e = assertThrows(NvidbException.class, this::load);
        assertEquals("configuration " + file + ", line 3: servers[0].transport must be one of local, slurm, ssh,"
                + " not 'telnet'", e.getMessage());
    }

    @Test
    void theSchedulersOwnErrorIsTheUsageError() throws IOException {
        Path file = write("servers:", "  - transport: slurm", "    login: local");
        ConfigLoader loader = new ConfigLoader(StubPlugins.registry((ConfigSection section) -> {
            if (section.path().startsWith("servers") && !section.contains("partition")) {
                throw section.error("partition", "is missing");
            }
        }));
        NvidbException e = assertThrows(NvidbException.class, () -> loader.load(ConfigLoaderTest.paths(home)));
        assertEquals("configuration " + file + ", line 2: servers[0].partition is missing", e.getMessage());
    }
}
