package nvidb.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;

/**
 * A transport ({@code transport: bench-memory}) whose nodes answer from memory, as a real node's
 * sh would answer nvidb's scripts: the probe with {@link #GPUS} idle 80 GB GPUs, a process table
 * and every job directory it is asked about alive; a launch with a pid. Any other script (a lane
 * runner's) succeeds with nothing to say. A pass over these nodes costs what nvidb itself does:
 * writing the scripts, reading the answers, the database, placement; no process, no network.
 */
final class MemoryNodes implements TransportFactory {
    static final String NAME = "bench-memory";
    static final int GPUS = 8;
    private static final long STARTED = 1_796_206_050L;

    /** Scripts answered, by kind: probe, launch, other. */
    final ConcurrentHashMap<String, AtomicInteger> answered = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Transport open(NodeAddress address) {
        return new Transport() {
            @Override
            public ExecResult run(String script, Duration timeout, boolean idempotent) {
                String kind = script.contains("\nnvidb_run_name=") ? "launch"
                        : script.contains("echo \"$m node\"") ? "probe" : "other";
                answered.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                return switch (kind) {
                    case "launch" -> launch(script);
                    case "probe" -> probe(address.name(), script);
                    default -> new ExecResult(0, "", "");
                };
            }

            @Override
            public void close() {
            }
        };
    }

    /** The value the script's header gives {@code name} ({@code name=value}, maybe single-quoted). */
    static String header(String script, String name) {
        int at = script.indexOf("\n" + name + "=");
        if (at < 0) {
            return null;
        }
        int from = at + name.length() + 2;
        return unquote(script.substring(from, script.indexOf('\n', from)));
    }

    private static String unquote(String word) {
        return word.length() >= 2 && word.startsWith("'") && word.endsWith("'") ? word.substring(1, word.length() - 1) : word;
    }

    static int pid(long jobId) {
        return (int) (100_000 + jobId);
    }

    private static ExecResult launch(String script) {
        String root = header(script, "nvidb_root");
        String name = header(script, "nvidb_run_name");
        long jobId = Long.parseLong(name.contains("-") ? name.substring(0, name.indexOf('-')) : name);
        String dir = (root.startsWith("/") ? root : "/home/bench/" + root) + "/" + name;
        int pid = pid(jobId);
        return new ExecResult(0, "NVIDB_DIR=" + dir + "\nNVIDB_PID=" + pid + "\nNVIDB_PGID=" + pid + "\nNVIDB_SETSID=1\n", "");
    }

    private static ExecResult probe(String node, String script) {
        String m = header(script, "m");
        List<String> args = new ArrayList<>();
        int set = script.indexOf("\nset --");
        if (set >= 0) {
            for (String word : script.substring(set + 7, script.indexOf('\n', set + 1)).strip().split(" ")) {
                if (!word.isEmpty()) {
                    args.add(unquote(word));
                }
            }
        }
        StringBuilder out = new StringBuilder(4096);
        out.append(m).append(" node\nkernel=6.1.0-18-amd64\nhome=/home/bench\n");
        out.append(m).append(" ps\n    1     1 root /sbin/init\n");
        for (int i = 0; i + 1 < args.size(); i += 2) {
            int pid = pid(Long.parseLong(args.get(i)));
            out.append(' ').append(pid).append(' ').append(pid).append(" bench sh ").append(args.get(i + 1)).append("/run.sh\n");
        }
        out.append(m).append(" gpu\n@@nvidb-gpus rc=0\n");
        for (int g = 0; g < GPUS; g++) {
            out.append(g).append(", GPU-").append(node).append('-').append(g).append(", NVIDIA A100-SXM4-80GB, 81920, 0, 0, 0, 30\n");
        }
        out.append("@@nvidb-apps rc=0\n@@nvidb-gpus-end\n");
        for (int i = 0; i + 1 < args.size(); i += 2) {
            int pid = pid(Long.parseLong(args.get(i)));
            out.append(m).append(" job ").append(args.get(i)).append("\npid=").append(pid).append("\npgid=").append(pid)
                    .append("\nsession=1\nalive=1\nexit=\nstarted=").append(STARTED).append("\ntimed_out=\n");
        }
        out.append(m).append(" end\n");
        return new ExecResult(0, out.toString(), "");
    }
}
