package nvidb.core.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import nvidb.core.api.HealthCheck;
import nvidb.core.api.ShellQuote;
import nvidb.core.config.QueueConfig;
import nvidb.core.config.ServerConfig;
import nvidb.core.node.NodeConnections;
import nvidb.core.node.NodeScripts;
import nvidb.core.plugins.PluginRegistry;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.TransportException;

/**
 * The nodes' part of {@code nvidb doctor}: one round trip to each node through its transport, all
 * nodes at once, each within the probe timeout. The node's {@code sh} reports its clock, whether
 * the job root takes a new file, the free space there and what {@code nvidia-smi} says.
 */
final class NodeCheckup {
    /** A node clock further than this from the queue host's fails: timeouts and ages go wrong. */
    static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(5);

    private NodeCheckup() {
    }

    /**
     * The checks of every configured node but the ignored ones, in the configuration's order.
     *
     * @param minFreeBytes less free space than this in a job root fails
     */
    static List<HealthCheck> all(QueueConfig config, PluginRegistry plugins, Set<String> ignored, long minFreeBytes) {
        List<ServerConfig> servers = config.servers().stream().filter(s -> !ignored.contains(s.name())).toList();
        List<HealthCheck> checks = new ArrayList<>();
        try (NodeConnections nodes = new NodeConnections(config, plugins);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<HealthCheck>>> answers = new ArrayList<>();
            for (ServerConfig s : servers) {
                answers.add(pool.submit(() -> one(nodes, s, Duration.ofSeconds(config.settings().probeTimeout()),
                        minFreeBytes)));
            }
            for (int i = 0; i < servers.size(); i++) {
                try {
                    checks.addAll(answers.get(i).get());
                } catch (ExecutionException e) {
                    checks.add(HealthCheck.fail("node " + servers.get(i).name(), "could not be checked: " + e.getCause(),
                            "run nvidb doctor again with NVIDB_DEBUG=1 and report it"));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return checks;
                }
            }
        }
        return checks;
    }

    private static List<HealthCheck> one(NodeConnections nodes, ServerConfig s, Duration timeout,
                                         long minFreeBytes) {
        String name = "node " + s.name();
        String root = nodes.jobRoot(s.name());
        long sent = System.currentTimeMillis();
        ExecResult r;
        try {
            r = nodes.run(s.name(), script(root, s.nvidiaSmi() == null ? "nvidia-smi" : s.nvidiaSmi()), timeout, true);
        } catch (TransportException | RuntimeException e) {
            return List.of(HealthCheck.fail(name, "does not answer over " + s.transport() + ": " + e.getMessage(),
                    "local".equals(s.transport()) ? "check that sh runs here" : "check that the node is up and that"
                            + " `ssh " + address(s) + " true` works from this machine (its sshd, keys, firewall)"));
        }
        long answered = System.currentTimeMillis();
        Map<String, String> said = new HashMap<>();
        for (String line : r.stdout().split("\n")) {
            int space = line.indexOf(' ');
            said.put(space < 0 ? line : line.substring(0, space), space < 0 ? "" : line.substring(space + 1).strip());
        }
        if (!said.containsKey("clock")) {
            return List.of(HealthCheck.fail(name, "answers, but its sh did not run the check (exit " + r.exitCode()
                    + "): " + r.stderr().strip(), "check that the node's login shell runs POSIX sh scripts"));
        }
        List<HealthCheck> checks = new ArrayList<>();
        checks.add(HealthCheck.pass(name, "answers over " + s.transport() + " in " + (answered - sent) + " ms"));
        checks.add(gpus(name, s, said));
        checks.add(jobRoot(name, root, said, minFreeBytes));
        checks.add(clock(name, said.get("clock"), (sent + answered) / 2));
        return checks;
    }

    private static HealthCheck gpus(String name, ServerConfig s, Map<String, String> said) {
        String check = name + " gpus";
        String blind = "wsl".equals(s.probe()) ? " (probe wsl: attribution blind)" : "";
        if (said.containsKey("gpus")) {
            return HealthCheck.pass(check, said.get("gpus") + " GPU(s) through " + smi(s) + blind);
        }
        if (said.containsKey("smi-missing")) {
            return HealthCheck.pass(check, "no GPU: " + smi(s) + " is not there, so the node runs CPU jobs only"
                    + " (--gpus 0)");
        }
        return HealthCheck.fail(check, smi(s) + " fails: " + said.getOrDefault("smi-failed", "no answer"),
                "check the NVIDIA driver on the node (run " + smi(s) + " there), or name the right command in"
                        + " nvidia_smi: of its server entry");
    }

    private static HealthCheck jobRoot(String name, String root, Map<String, String> said, long minFreeBytes) {
        String check = name + " job_root";
        if (!said.containsKey("root-writable")) {
            return HealthCheck.fail(check, root + " is not writable there: no job can start",
                    "create it writable for the node's user, or set job_root: of its server entry (queue.job_root)"
                            + " to a folder that is");
        }
        long free = parseLong(said.get("root-free")) * 1024;
        if (free >= 0 && free < minFreeBytes) {
            return HealthCheck.fail(check, root + " has " + size(free) + " free", "free space there (finished jobs'"
                    + " folders hold their logs), or point job_root: elsewhere");
        }
        return HealthCheck.pass(check, root + " writable" + (free >= 0 ? ", " + size(free) + " free" : ""));
    }

    private static HealthCheck clock(String name, String nodeEpoch, long hereMillis) {
        String check = name + " clock";
        long node = parseLong(nodeEpoch);
        if (node < 0) {
            return HealthCheck.fail(check, "the node's date said " + nodeEpoch, "check date on the node");
        }
        long skew = Math.abs(node * 1000 + 500 - hereMillis) / 1000;
        if (skew > MAX_CLOCK_SKEW.toSeconds()) {
            return HealthCheck.fail(check, "the node's clock is " + skew + " s off this host's", "synchronise the"
                    + " clocks (systemd-timesyncd, chrony or ntpd on both)");
        }
        return HealthCheck.pass(check, "within " + MAX_CLOCK_SKEW.toSeconds() + " s of this host's");
    }

    /**
     * The node's side: its clock, a file made and removed in the job root (created where missing,
     * as a launch would), the free space there, and how many GPUs nvidia-smi lists.
     */
    static String script(String jobRoot, String nvidiaSmi) {
        return "cd \"$HOME\" 2> /dev/null || cd /\n"
                + "printf 'clock %s\\n' \"$(date +%s)\"\n"
                + "root=" + ShellQuote.quote(NodeScripts.root(jobRoot)) + "\n"
                + "if mkdir -p -- \"$root\" 2> /dev/null && : > \"$root/.nvidb-doctor.$$\" 2> /dev/null; then\n"
                + "    rm -f -- \"$root/.nvidb-doctor.$$\"; echo root-writable\n"
                + "fi\n"
                + "printf 'root-free %s\\n' \"$(df -Pk -- \"$root\" 2> /dev/null | awk 'NR == 2 {print $4}')\"\n"
                + "set -- " + ShellQuote.join(List.of(nvidiaSmi.strip().split("\\s+"))) + "\n"
                + "if ! command -v \"$1\" > /dev/null 2>&1; then\n"
                + "    echo smi-missing\n"
                + "elif out=$(\"$@\" --query-gpu=index --format=csv,noheader,nounits 2>&1); then\n"
                + "    printf 'gpus %s\\n' \"$(printf '%s\\n' \"$out\" | grep -c .)\"\n"
                + "else\n"
                + "    printf 'smi-failed %s\\n' \"$(printf '%s\\n' \"$out\" | head -n 1)\"\n"
                + "fi\n";
    }

    private static String smi(ServerConfig s) {
        return s.nvidiaSmi() == null ? "nvidia-smi" : s.nvidiaSmi();
    }

    private static String address(ServerConfig s) {
        return (s.username() == null ? "" : s.username() + "@") + s.hostname() + (s.port() == 22 ? "" : " -p " + s.port());
    }

    private static long parseLong(String s) {
        try {
            return s == null ? -1 : Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** 1.5 GiB, 300 MiB. */
    static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        return (bytes >> 20) + " MiB";
    }

    /** 3 d, 5 h, 12 min, 40 s. */
    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s >= 2 * 86400) {
            return s / 86400 + " d";
        }
        if (s >= 2 * 3600) {
            return s / 3600 + " h";
        }
        return s >= 120 ? s / 60 + " min" : s + " s";
    }
}
