package nvidb.core.scheduler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import nvidb.core.api.Alert;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.PluginEntry;
import nvidb.core.config.NodeKind;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.QueueSettings;
import nvidb.core.config.ServerConfig;
import nvidb.core.lifecycle.JobLifecycle;
import nvidb.core.node.NodeConnections;
import nvidb.core.plugins.PluginRegistry;
import nvidb.core.store.JobRepository;
import nvidb.core.store.Store;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;
import nvidb.spi.transport.TransportFactory;

/**
 * What a pass needs, for one test: a real SQLite file, one configured node {@code box}, and a
 * transport that runs each script with the real {@code sh} of this machine (as the local
 * transport does) until the test cuts the node off, after which every round trip fails as an
 * unreachable node's would.
 */
final class PassFixture implements AutoCloseable {
    static final String NODE = "box";

    final Store store;
    final QueueConfig config;
    final NodeConnections nodes;
    final JobLifecycle lifecycle;
    private volatile boolean reachable = true;

    PassFixture(Path dir) {
        this(dir, List.of(), List.of());
    }

    /**
     * With {@code more} nodes after {@code box} (a batch partition's login may be {@code test-sh},
     * the same real sh), and {@code plugins} beside the fixture's own.
     */
    PassFixture(Path dir, List<ServerConfig> more, List<PluginEntry> plugins) {
        store = Store.open(dir.resolve("queue.db"));
        ServerConfig box = new ServerConfig(NODE, "localhost", 22, null, null, new NodeKind.Workstation("test-sh"),
                null, null, dir.resolve("jobs").toString(), Map.of());
        List<ServerConfig> servers = new ArrayList<>(List.of(box));
        servers.addAll(more);
        config = new QueueConfig(QueueSettings.defaults(), servers, null);
        List<PluginEntry> entries = new ArrayList<>(List.of(new PluginEntry(new ShFactory(), "test"),
                new PluginEntry(new NoGpuProbe(), "test")));
        entries.addAll(plugins);
        nodes = new NodeConnections(config, PluginRegistry.of(entries));
        lifecycle = new JobLifecycle(store);
        store.db.write(() -> {
            int order = 0;
            for (ServerConfig s : servers) {
                store.nodes.upsertConfigured(s.name(), s.hostname(), s.port(), null, order++);
            }
            return null;
        });
    }

    void cutOff() {
        reachable = false;
    }

    long submit(JobRepository.NewJob job) {
        return lifecycle.submit(job, "test", Instant.now());
    }

    static JobRepository.NewJob job(long vramMb, Integer timeoutS, List<Long> after) {
        return new JobRepository.NewJob("", "sleep 60", "/tmp", Map.of(), 0, 1, vramMb, null, after, List.of(),
                timeoutS, "tester@host:1", List.of(), null, null, 0, null, null);
    }

    Job find(long id) {
        return store.db.read(() -> store.jobs.find(id)).orElseThrow();
    }

    List<Event> events(long id) {
        return store.db.read(() -> store.events.newest(id, 100));
    }

    List<Alert> alerts() {
        return store.db.read(() -> store.alerts.newest(true, 100));
    }

    @Override
    public void close() {
        nodes.close();
        store.close();
    }

    /** A probe that finds no GPU: the passes under test here never need one measured. */
    private static final class NoGpuProbe implements nvidb.spi.probe.ProbeFactory {
        @Override
        public String name() {
            return "nvidia-smi";
        }

        @Override
        public nvidb.spi.probe.Probe create(nvidb.spi.probe.ProbeSettings settings) {
            return new nvidb.spi.probe.Probe() {
                @Override
                public String script() {
                    return "echo no-gpu";
                }

                @Override
                public nvidb.spi.probe.GpuReport parse(String output) {
                    return nvidb.spi.probe.GpuReport.failed("no GPU on this test node");
                }
            };
        }
    }

    private final class ShFactory implements TransportFactory {
        @Override
        public String name() {
            return "test-sh";
        }

        @Override
        public Transport open(NodeAddress address) {
            return new Transport() {
                @Override
                public ExecResult run(String script, Duration timeout, boolean idempotent) throws TransportException {
                    if (!reachable) {
                        throw new TransportException("ssh: connect to host " + address.hostname() + ": No route to host");
                    }
                    try {
                        Process p = new ProcessBuilder("sh", "-c", script).start();
                        p.getOutputStream().close();
                        byte[] out = p.getInputStream().readAllBytes();
                        byte[] err = p.getErrorStream().readAllBytes();
                        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                            p.destroyForcibly();
                            throw new TransportException("timed out");
                        }
                        return new ExecResult(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                                new String(err, StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        throw new TransportException(e.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new TransportException("interrupted");
                    }
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
