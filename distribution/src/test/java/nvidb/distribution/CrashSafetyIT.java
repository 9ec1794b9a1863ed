package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import nvidb.testkit.FakeNvidiaSmi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety (issue 11, "nothing acknowledged is ever lost"): rounds of concurrent
 * {@code job submit}, {@code queue tick} and {@code job cancel} processes of the built image
 * against four local nodes, each process SIGKILLed at a random moment or left to finish, then:
 * the database passes {@code PRAGMA integrity_check}; every submit that printed an id has exactly
 * one row (a killed submit is retried with the same idempotency key, as a careful client would);
 * no attempt of a job started twice, on one node or on two (each job's command appends its run
 * directory to a marker file); no lease is left blocking the queue; and the queue drains afterwards.
 * It found two ways an attempt started twice, both fixed: a pool job's place was not written before
 * its launch, so a tick killed after the node started the job left it to be placed afresh on
 * another node; and the launch of a killed tick, still running on the node, raced the next pass's
 * launch of the same attempt there (now an attempt's launches take a lock in its run directory).
 *
 * <p>{@code -Dnvidb.crash.rounds=N} (default 30, the CI size), {@code -Dnvidb.crash.seed=S}
 * replays the random choices of a run (which commands, which kill delays; the machine's timing
 * is not replayed), {@code -Dnvidb.crash.releaseDeadLeases=true} releases a killed tick's
 * scheduler lease between rounds (see {@link #releaseLeftoverLease}); by default the queue takes
 * over a lease whose holder died on this host by itself, which is what the check exercises.
 */
class CrashSafetyIT {
    static final int NODES = 4;
    /** How many processes in a hundred are SIGKILLed ({@code -Dnvidb.crash.killPercent}; 0 runs the same load unkilled). */
    static final int KILL_PERCENT = Integer.getInteger("nvidb.crash.killPercent", 60);
    // The scheduler lease lives QueueSettings.effectiveLockTtl() = max(60, lock_ttl,
    // 2 probe_timeout + 30, 2 launch_timeout + 60) seconds: 66 with the settings below.
    static final int PROBE_TIMEOUT = 10;
    static final int LAUNCH_TIMEOUT = 3;
    static final int LEASE_TTL_S = Math.max(60, Math.max(2 * PROBE_TIMEOUT + 30, 2 * LAUNCH_TIMEOUT + 60));
    static final List<List<String>> SHAPES = List.of(List.of("--gpus", "0"), List.of("--vram", "2G"),
            List.of("--gpus", "2", "--vram", "1G"));

    @TempDir
    Path tmp;
    Path nvidb;
    Path db;
    Path marks;
    Map<String, String> env = new HashMap<>();
    Random rng;

    final Map<String, List<String>> requests = new LinkedHashMap<>(); // name -> submit arguments
    final Map<String, Long> acked = new LinkedHashMap<>(); // name -> the id its submit printed
    final List<String> retry = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    final Map<String, Integer> kills = new TreeMap<>();
    final Map<String, List<Long>> runtimes = new TreeMap<>(); // kind -> ms of the runs not killed
    int leftoverLeases;
    int lockedTicks;

    @BeforeEach
    void setUp() throws IOException {
        nvidb = Client.image();
        Path home = Files.createDirectories(tmp.resolve("home"));
        db = home.resolve("queue.db");
        marks = tmp.resolve("starts");
        Files.createDirectories(tmp.resolve("io"));
        StringBuilder y = new StringBuilder("queue:\n  tick_min_interval: 0\n  lock_ttl: 1\n  probe_timeout: ")
                .append(PROBE_TIMEOUT).append("\n  launch_timeout: ").append(LAUNCH_TIMEOUT).append("\nservers:\n");
        String path = System.getenv("PATH");
        for (int n = 0; n < NODES; n++) {
            FakeNvidiaSmi smi = FakeNvidiaSmi.install("n" + n, tmp.resolve("n" + n + "/bin"), tmp.resolve("n" + n + "/smi"))
                    .gpu(0, "NVIDIA GeForce RTX 3090 Ti", 24564).gpu(1, "NVIDIA GeForce RTX 3090 Ti", 24564);
            y.append("  - nickname: n").append(n).append("\n    transport: local\n    nvidia_smi: ").append(smi.command())
                    .append("\n    job_root: ").append(tmp.resolve("n" + n + "/jobs")).append('\n');
            path = n == 0 ? smi.pathWithFake() : path;
        }
        Files.writeString(home.resolve("queue.yml"), y.toString());
        env.put("NVIDB_HOME", home.toString());
        env.put("PATH", path);
    }

    @Test
    void sigkilledCommandsLoseNothingAndStartNothingTwice() throws Exception {
        int rounds = Integer.getInteger("nvidb.crash.rounds", 30);
        long seed = Long.getLong("nvidb.crash.seed", System.nanoTime());
        int maxKillMs = Integer.getInteger("nvidb.crash.maxKillMs", 900);
        boolean releaseDead = Boolean.getBoolean("nvidb.crash.releaseDeadLeases");
        System.out.printf("CrashSafetyIT: %d rounds, seed %d (replay with -Dnvidb.crash.seed=%d)%n", rounds, seed, seed);
        rng = new Random(seed);
        long t0 = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            List<Client> clients = new ArrayList<>();
            int submitters = 2 + rng.nextInt(3);
            for (int i = 0; i < submitters; i++) {
                String name = !retry.isEmpty() && rng.nextBoolean() ? retry.removeFirst() : "r" + round + "-" + i;
                clients.add(start("submit", name, maxKillMs, requests.computeIfAbsent(name, this::submitArgs)));
            }
            clients.add(start("tick", null, maxKillMs, List.of("queue", "tick", "--json")));
            if (!acked.isEmpty()) {
                List<Long> ids = new ArrayList<>(acked.values());
                List<String> args = new ArrayList<>(List.of("job", "cancel", "--json"));
                for (int k = 1 + rng.nextInt(3); k > 0; k--) {
                    args.add(String.valueOf(ids.get(rng.nextInt(ids.size()))));
                }
                clients.add(start("cancel", null, maxKillMs, args));
            }
            killOnSchedule(clients);
            for (Client c : clients) {
                record(round, c);
            }
            checkIntegrity("after round " + round);
            if (releaseDead && round < rounds - 1) {
                releaseLeftoverLease();
            }
        }
        long roundsMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        long waitedMs = nextPassRuns();
        drain();
        checkIntegrity("at the end");
        Map<Long, List<String>> starts = checkJobs();
        System.out.printf("CrashSafetyIT: seed %d, %d rounds in %d ms; SIGKILLs %s; %d submits acknowledged, %d jobs"
                        + " in the store, %d jobs started; %d ticks answered locked; %d leftover scheduler"
                        + " leases (released between rounds: %b); final pass waited %d ms for the lease; median ms of"
                        + " unkilled runs %s%n",
                seed, rounds, roundsMs, kills, acked.size(), rowCount(), starts.size(), lockedTicks, leftoverLeases,
                releaseDead, waitedMs, medians());
        assertEquals(List.of(), problems, "seed " + seed);
    }

    private Map<String, Long> medians() {
        Map<String, Long> out = new TreeMap<>();
        runtimes.forEach((kind, ms) -> out.put(kind, ms.stream().sorted().toList().get(ms.size() / 2)));
        return out;
    }

    private List<String> submitArgs(String name) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--json", "--name", name, "--idempotency-key", name));
        args.addAll(SHAPES.get(rng.nextInt(SHAPES.size())));
        args.add("--");
        args.add("echo \"$NVIDB_JOB_DIR $$ $(date +%T.%N)\" >> '" + marks + "'; sleep 0." + rng.nextInt(10));
        return args;
    }

    /**
     * 60 % of the commands get a kill time, uniform over how long that kind of command has been
     * running unkilled here (its 90th percentile so far; {@code maxKillMs} until there are ten),
     * so that kills land all through the command's life whatever the machine's speed.
     */
    private Client start(String kind, String name, int maxKillMs, List<String> args) {
        List<Long> seen = runtimes.getOrDefault(kind, List.of()).stream().sorted().toList();
        int window = seen.size() < 10 ? maxKillMs : (int) Math.max(50, seen.get(seen.size() * 9 / 10));
        long killAt = rng.nextInt(100) < KILL_PERCENT ? rng.nextInt(window) : -1;
        return Client.start(nvidb, env, tmp.resolve("io"), kind, name, killAt, args);
    }

    private void killOnSchedule(List<Client> clients) throws InterruptedException {
        List<Client> doomed = clients.stream().filter(c -> c.killAt() >= 0)
                .sorted(Comparator.comparingLong(Client::killAt)).toList();
        for (Client c : doomed) {
            long due = c.startedNanos() + TimeUnit.MILLISECONDS.toNanos(c.killAt()) - System.nanoTime();
            if (due > 0) {
                TimeUnit.NANOSECONDS.sleep(due);
            }
            if (c.kill()) {
                kills.merge(c.kind(), 1, Integer::sum);
            }
        }
    }

    private void record(int round, Client c) {
        int exit = c.finish(120);
        JsonNode doc = c.document();
        if (!c.wasKilled()) {
            runtimes.computeIfAbsent(c.kind(), k -> new ArrayList<>()).add(c.runtimeMs());
        }
        if (!c.wasKilled() && (doc == null || !List.of(0, 3, 4).contains(exit) || c.stderr().contains("Exception"))) {
            problems.add("round " + round + ": " + c + " exit " + exit + "\n" + c.stdout() + c.stderr());
        }
        if (c.kind().equals("tick") && doc != null && "locked".equals(doc.path("skipped").asText())) {
            lockedTicks++;
        }
        if (!c.kind().equals("submit")) {
            return;
        }
        if (doc != null && doc.path("job").path("id").canConvertToLong()) {
            long id = doc.path("job").path("id").asLong();
            Long before = acked.putIfAbsent(c.name(), id);
            if (before != null && before != id) {
                problems.add("round " + round + ": " + c.name() + " acknowledged as " + before + " and then as " + id);
            }
            retry.remove(c.name());
        } else if (c.wasKilled() && !acked.containsKey(c.name()) && !retry.contains(c.name())) {
            retry.add(c.name());
        }
    }

    /**
     * A SIGKILLed tick leaves the scheduler lease held for its TTL (66 s here; it cannot be set
     * below 60 s). Until a dead local holder's lease is taken over at once (issue 11), the harness
     * releases it between rounds, as that takeover would, so that later rounds still dispatch;
     * the last round's leftover is left alone and {@link #nextPassRuns} checks the real behaviour.
     */
    private void releaseLeftoverLease() throws SQLException {
        try (Connection c = open(); Statement s = c.createStatement()) {
            int n = s.executeUpdate("UPDATE locks SET owner = NULL, expires_at = NULL WHERE owner IS NOT NULL");
            leftoverLeases += n;
        }
    }

    /** The pass after the crashes must run, at the latest once the lease TTL is over. */
    private long nextPassRuns() throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(LEASE_TTL_S + 15);
        while (true) {
            Client c = Client.start(nvidb, env, tmp.resolve("io"), "tick", null, -1, List.of("queue", "tick", "--json"));
            c.finish(120);
            JsonNode doc = c.document();
            if (doc != null && doc.path("ran").asBoolean()) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("queue tick still skipped after the lease TTL (" + LEASE_TTL_S + " s): "
                        + c.stdout() + c.stderr());
            }
            Thread.sleep(1000);
        }
    }

    /** Every job reaches an end: nothing is left running or pending for ever by a crash. */
    private void drain() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        String open = "";
        while (System.nanoTime() < deadline) {
            open = query("SELECT group_concat(id || ':' || state, ' ') FROM jobs WHERE state IN ('pending', 'running')");
            if (open == null) {
                return;
            }
            Client.start(nvidb, env, tmp.resolve("io"), "tick", null, -1, List.of("queue", "tick", "--json")).finish(120);
            Thread.sleep(300);
        }
        problems.add("jobs still open two minutes after the last crash: " + open);
    }

    /**
     * Acknowledged submits have exactly their one row; no name has two; each attempt's run
     * directory was started at most once, and a job no more often than the attempts the store
     * recorded; a job the store says never started did not run. Returns each job's starts.
     */
    private Map<Long, List<String>> checkJobs() throws Exception {
        Map<String, List<Long>> rows = new HashMap<>();
        Map<Long, String> startedAt = new HashMap<>();
        Map<Long, String> states = new HashMap<>();
        Map<Long, Integer> attempts = new HashMap<>();
        try (Connection c = open(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, state, started_at, attempt FROM jobs")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                rows.computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(id);
                startedAt.put(id, rs.getString(4));
                states.put(id, rs.getString(3));
                attempts.put(id, rs.getInt(5));
            }
        }
        acked.forEach((name, id) -> {
            if (!List.of(id).equals(rows.get(name))) {
                problems.add("submit " + name + " printed id " + id + "; the store has " + rows.get(name));
            }
        });
        rows.forEach((name, ids) -> {
            if (ids.size() > 1) {
                problems.add("one submit (key " + name + ") made " + ids.size() + " jobs: " + ids);
            }
        });
        // One marker line per start: "<run dir> <pid> <time>"; the run dir's name is the job id
        // (and -attempt-N), its parent the node's job root, so one job may start on two nodes.
        List<String> lines = Files.exists(marks) ? Files.readAllLines(marks) : List.of();
        Map<Long, List<String>> starts = new TreeMap<>();
        for (String line : lines) {
            String run = Path.of(line.substring(0, line.indexOf(' '))).getFileName().toString();
            starts.computeIfAbsent(Long.parseLong(run.replaceFirst("-attempt-.*", "")), k -> new ArrayList<>())
                    .add(line);
        }
        for (Map.Entry<Long, List<String>> e : starts.entrySet()) {
            long id = e.getKey();
            int ran = e.getValue().size();
            if (ran > attempts.getOrDefault(id, 0) || e.getValue().stream().map(l -> l.split(" ")[0]).distinct()
                    .count() < ran) {
                problems.add("job " + id + " started " + ran + " times for "
                        + attempts.get(id) + " recorded attempt(s) (now " + states.get(id) + "; starts: "
                        + e.getValue() + "); events: " + events(id));
            }
            if (startedAt.get(id) == null) {
                problems.add("job " + id + " ran (" + e.getValue() + ") but the store says it never started ("
                        + states.get(id) + ")");
            }
        }
        return starts;
    }

    private String events(long id) throws SQLException {
        return query("SELECT group_concat(ts || ' ' || kind || ' ' || coalesce(message, ''), ' | ') FROM"
                + " (SELECT * FROM events WHERE job_id = " + id + " ORDER BY id)");
    }

    private void checkIntegrity(String when) throws SQLException {
        String result = query("PRAGMA integrity_check");
        if (!"ok".equals(result)) {
            problems.add("integrity_check " + when + ": " + result);
        }
    }

    private long rowCount() throws SQLException {
        return Long.parseLong(query("SELECT count(*) FROM jobs"));
    }

    private String query(String sql) throws SQLException {
        try (Connection c = open(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private Connection open() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 10000");
        }
        return c;
    }
}
