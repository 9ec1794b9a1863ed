package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.testkit.ProcessLines;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon soak, CI-sized (2 minutes; {@code bench/daemon-soak.sh} runs it for 30 minutes with
 * {@code -Dnvidb.soak.seconds}): a queue daemon serves two loopback sshd nodes while four
 * processes submit, cancel and requeue at random, and the nodes' sshd is restarted or
 * black-holed (every sshd process stopped with SIGSTOP, so connections hang) at random. Then,
 * with the nodes back: every acknowledged submit is a job, every job settles, and no attempt
 * starts twice or ends twice; the daemon's resident size and open files at the end are within
 * bounds of those at the start (both printed); daemon.log stays within its rotation.
 */
class DaemonSoakTest {
    private static final Set<String> ENDS = Set.of("job_finished", "job_failed", "job_timeout", "job_lost");

    @TempDir
    Path tmp;
    private final List<SshdFixture> nodes = new ArrayList<>();
    private final List<Process> churn = new ArrayList<>();
    private DaemonProcess daemon;

    @AfterEach
    void tearDown() throws Exception {
        churn.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        for (SshdFixture n : nodes) {
            signal(n, "CONT");
            n.close();
        }
        if (daemon != null) {
            daemon.close();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.HOURS) // bench/daemon-soak.sh runs it for 30 minutes
    void churnAndFlakyNodesSettleEveryJobOnce() throws Exception {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        long seconds = Long.getLong("nvidb.soak.seconds", 120);
        Cli cli = new Cli(tmp);
        StringBuilder y = new StringBuilder("queue:\n  tick_min_interval: 0.5\n  probe_timeout: 10\n  launch_timeout: 15\n"
                + "  max_cpu_jobs_per_node: 0\nservers:\n");
        StringBuilder knownHosts = new StringBuilder();
        for (String name : List.of("n1", "n2")) {
            SshdFixture f = SshdFixture.launch();
            nodes.add(f);
            FakeNvidiaSmi smi = FakeNvidiaSmi.install(name, tmp.resolve(name + "/bin"), tmp.resolve(name + "/state"))
                    .gpu(0, "NVIDIA GeForce RTX 4090", 24564);
            knownHosts.append(f.hostKeyLine()).append('\n');
            y.append("  - nickname: ").append(name).append("\n    hostname: 127.0.0.1\n    port: ").append(f.port())
                    .append("\n    username: ").append(f.user()).append("\n    auth: key\n    identityfile: ")
                    .append(f.userKey()).append("\n    known_hosts: ").append(tmp.resolve("known_hosts"))
                    .append("\n    home: ").append(tmp.resolve("client-home")).append("\n    connect_timeout: 5\n")
                    .append("    nvidia_smi: ").append(smi.command()).append("\n    job_root: ")
                    .append(tmp.resolve(name + "-jobs")).append('\n');
        }
        Files.writeString(tmp.resolve("known_hosts"), knownHosts);
        cli.write(".nvidb/queue.yml", y.toString());

        daemon = DaemonProcess.start(cli, "--interval", "2");
        for (int p = 0; p < 4; p++) {
            churn.add(cli.shell(churnScript(p, seconds)));
        }
        Thread.sleep(Math.min(15_000, seconds * 1000 / 4)); // warmed up: the figures to compare with
        long[] start = figures(daemon.pid());
        chaos(seconds * 1000 - Math.min(15_000, seconds * 1000 / 4));
        for (Process p : churn) {
            Cli.Result r = Cli.finish(p, 120);
            assertEquals(0, r.exit(), r.toString());
        }
        for (SshdFixture n : nodes) { // the nodes back for good
            signal(n, "CONT");
            n.start();
        }
        Set<Long> acked = new TreeSet<>();
        for (int p = 0; p < 4; p++) {
            for (String line : Files.readAllLines(tmp.resolve("acked-" + p))) {
                acked.add(Long.parseLong(line.strip()));
            }
        }
        long settleBy = System.currentTimeMillis() + 180_000;
        while (count(cli, "SELECT count(*) FROM jobs WHERE state IN ('pending', 'running')") > 0) {
            if (System.currentTimeMillis() > settleBy) {
                throw new AssertionError("jobs not settled 180 s after the nodes came back:\n"
                        + rows(cli, "SELECT id, state, node, attempt, last_error, updated_at FROM jobs"
                                + " WHERE state IN ('pending', 'running') LIMIT 20")
                        + rows(cli, "SELECT * FROM nodes") + "daemon stderr:\n" + daemon.stderr()
                        + "\ndaemon threads:\n" + threads(daemon.pid()));
            }
            Thread.sleep(500);
        }
        long[] end = figures(daemon.pid());
        assertTrue(daemon.process.isAlive(), "the daemon is still serving");

        Set<Long> jobs = new TreeSet<>(ids(cli, "SELECT id FROM jobs"));
        assertTrue(jobs.containsAll(acked), "every acknowledged submit is a job");
        String violations = exactlyOnce(cli);
        assertEquals("", violations, "no attempt starts or ends twice");
        long cap = 1024 * 1024;
        Path log = cli.nvidbHome().resolve("daemon.log");
        assertTrue(!Files.exists(log) || Files.size(log) <= cap + 4096, "daemon.log within its rotation");
        System.out.printf("DaemonSoakTest: %d s, %d jobs acknowledged, %d settled (%s); daemon RSS %d -> %d KiB,"
                        + " open files %d -> %d; chaos: %d restarts, %d black holes%n", seconds, acked.size(), jobs.size(),
                states(cli), start[0], end[0], start[1], end[1], restarts.get(), holes.get());
        assertTrue(end[1] <= start[1] + 20, "open files bounded: " + start[1] + " -> " + end[1]);
        assertTrue(end[0] <= 2 * start[0] + 100 * 1024, "resident size bounded: " + start[0] + " -> " + end[0] + " KiB");
    }

    /** The daemon's threads (jcmd Thread.print), for a soak that did not settle. */
    private static String threads(long pid) {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (Exception e) {
            return "(jcmd failed: " + e + ")";
        }
    }

    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger holes = new AtomicInteger();

    /** Restarts or black-holes a random node every few seconds, for {@code millis}. */
    private void chaos(long millis) throws Exception {
        Random random = new Random(24_701L);
        long until = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < until) {
            Thread.sleep(3_000 + random.nextInt(5_000));
            SshdFixture n = nodes.get(random.nextInt(nodes.size()));
            if (random.nextBoolean()) {
                n.stop();
                Thread.sleep(500 + random.nextInt(2_000));
                n.start();
                restarts.incrementAndGet();
            } else {
                signal(n, "STOP");
                Thread.sleep(3_000 + random.nextInt(4_000));
                signal(n, "CONT");
                holes.incrementAndGet();
            }
        }
    }

    /** Sends a signal to a node's sshd and its session processes (not the jobs below them). */
    private static void signal(SshdFixture n, String signal) throws Exception {
        List<ProcessHandle> sshd = new ArrayList<>();
        ProcessHandle.allProcesses().filter(p -> ProcessLines.of(p).contains(n.dir().toString()))
                .forEach(main -> {
                    sshd.add(main);
                    main.descendants().filter(d -> d.info().command().orElse("").contains("sshd")).forEach(sshd::add);
                });
        for (ProcessHandle p : sshd) {
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
        }
    }

    /** One churn process: submits (acknowledged ids to acked-P), cancels and requeues at random. */
    private String churnScript(int p, long seconds) {
        Path acked = tmp.resolve("acked-" + p);
        return "acked=" + Cli.q(acked.toString()) + "; : > \"$acked\"\n"
                + "end=$(( $(date +%s) + " + seconds + " ))\n"
                + "i=0\n"
                + "while [ \"$(date +%s)\" -lt \"$end\" ]; do\n"
                + "  i=$((i + 1)); r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
                + "  pick=$(shuf -n 1 \"$acked\" 2>/dev/null)\n"
                + "  if [ \"$r\" -lt 150 ] || [ -z \"$pick\" ]; then\n"
                + "    out=$(nvidb job submit --json --gpus 0 --name c" + p + "-$i -- sh -c 'sleep 0.$((r % 9))') &&\n"
                + "      printf '%s\\n' \"$out\" | sed -n 's/^ *\"id\" *: *\\([0-9][0-9]*\\).*/\\1/p' | head -n 1 >> \"$acked\"\n"
                + "  elif [ \"$r\" -lt 200 ]; then nvidb job cancel \"$pick\" > /dev/null 2>&1\n"
                + "  else nvidb job requeue \"$pick\" > /dev/null 2>&1\n"
                + "  fi\n"
                + "done\n"
                + "exit 0\n";
    }

    /** The daemon's resident size (KiB) and open file descriptors. */
    private static long[] figures(long pid) throws Exception {
        long rss = 0;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return new long[] {rss, fds.count()};
        }
    }

    /**
     * Each job's events in order: a start while an attempt runs, or an end (finished, failed,
     * timed out, lost) with none running, is a violation. A cancel ends a running attempt or a
     * pending job; a requeue makes it pending again. A launch that started nothing is logged as
     * {@code job_failed} "launch failed: …" while the job stays pending (reference-scheduler.md,
     * pending → pending): not an attempt's end, but a violation if an attempt was running.
     */
    private static String exactlyOnce(Cli cli) throws Exception {
        StringBuilder problems = new StringBuilder();
        Map<Long, Boolean> running = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT job_id, kind, message FROM events WHERE job_id IS NOT NULL ORDER BY id")) {
            while (rs.next()) {
                long job = rs.getLong(1);
                String kind = rs.getString(2);
                boolean on = running.getOrDefault(job, false);
                if (kind.equals("job_failed") && String.valueOf(rs.getString(3)).startsWith("launch failed:")) {
                    if (on) {
                        problems.append("job ").append(job).append(" launch failed while an attempt runs; ");
                    }
                } else if (kind.equals("job_started")) {
                    if (on) {
                        problems.append("job ").append(job).append(" started twice; ");
                    }
                    running.put(job, true);
                } else if (ENDS.contains(kind)) {
                    if (!on) {
                        problems.append("job ").append(job).append(' ').append(kind).append(" with no attempt running (")
                                .append(rs.getString(3)).append("); ");
                    }
                    running.put(job, false);
                } else if (kind.equals("job_cancelled") || kind.equals("job_requeued")) {
                    running.put(job, false);
                }
            }
        }
        return problems.toString();
    }

    private static long count(Cli cli, String sql) throws Exception {
        return ids(cli, sql).getFirst();
    }

    private static List<Long> ids(Cli cli, String sql) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    private static String rows(Cli cli, String sql) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    sb.append(rs.getMetaData().getColumnName(i)).append('=').append(rs.getString(i)).append(' ');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static String states(Cli cli) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT state, count(*) FROM jobs GROUP BY state ORDER BY state")) {
            while (rs.next()) {
                sb.append(sb.isEmpty() ? "" : ", ").append(rs.getString(1)).append(' ').append(rs.getLong(2));
            }
        }
        return sb.toString();
    }

}
