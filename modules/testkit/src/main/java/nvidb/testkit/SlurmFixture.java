package nvidb.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real single-host Slurm on loopback, from Debian's packages ({@code slurm-wlm}, {@code munge}):
 * {@code munged}, {@code slurmctld} and {@code slurmd} started in the foreground as processes this
 * fixture owns, with a {@code slurm.conf} and {@code gres.conf} of its own declaring one node
 * with fake GPUs (slurmd 22.05 refuses count-only gres: each GPU is a {@code File=} symlink to
 * {@code /dev/null}) in one partition, {@code gpu}. State, spool, sockets and logs live under the
 * fixture's folder; no systemd, nothing of the host's own Slurm or munge is touched. Clients find
 * the configuration through {@code SLURM_CONF} ({@link #conf()}).
 *
 * <p>Every client call has a time limit: with slurmctld gone, Slurm's clients wait for minutes.
 * {@link #close()} cancels every job (slurmd would leave running ones behind), then stops the
 * daemons by pid. slurmd runs jobs as the submitting user; as root (CI) that is root.
 */
public final class SlurmFixture implements AutoCloseable {
    public static final String PARTITION = "gpu";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final long CLIENT_TIMEOUT_S = 15;

    private final Path dir;
    private final String host;
    private final int gpus;
    private final Path conf;
    private final List<Process> owned = new ArrayList<>();
    private Process munged;
    private Process slurmctld;
    private Process slurmd;
    private Duration startTime;

    /** What a test that needs the fixture skips with where it is not {@link #available()}. */
    public static String unavailable() {
        if (!Files.isExecutable(Path.of("/usr/sbin/munged"))) {
            return HostTools.missing("munged", "munge");
        }
        for (String f : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/squeue",
                "/usr/bin/sinfo", "/usr/bin/scancel")) {
            if (!Files.isExecutable(Path.of(f))) {
                return HostTools.missing(f, "slurm-wlm");
            }
        }
        return "the single-host Slurm starts munged, slurmctld and slurmd as root, and this is "
                + System.getProperty("user.name");
    }

    /** Whether this machine can run the fixture: the daemons and clients are installed, and we are root. */
    public static boolean available() {
        for (String f : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch",
                "/usr/bin/squeue", "/usr/bin/sinfo", "/usr/bin/scancel")) {
            if (!Files.isExecutable(Path.of(f))) {
                return false;
            }
        }
        return "root".equals(System.getProperty("user.name"));
    }

    private SlurmFixture(Path dir, int gpus) {
        this.dir = dir;
        this.gpus = gpus;
        this.host = shortHostname();
        this.conf = dir.resolve("slurm.conf");
    }

    /** Writes the configuration under {@code dir} and starts munged, slurmctld and slurmd; returns once the node is idle. */
    public static SlurmFixture start(Path dir, int gpus) {
        SlurmFixture f = new SlurmFixture(dir, gpus);
        long t0 = System.nanoTime();
        try {
            f.configure();
            f.munged = f.daemon("munged", "/usr/sbin/munged", "-F", "-f", "--socket=" + dir.resolve("munge.socket"),
                    "--key-file=" + dir.resolve("munge.key"), "--log-file=" + dir.resolve("munged.log"),
                    "--pid-file=" + dir.resolve("munged.pid"), "--seed-file=" + dir.resolve("munged.seed"));
            f.waitFor(() -> Files.exists(dir.resolve("munge.socket")), "munged's socket");
            f.startController();
            f.slurmd = f.daemon("slurmd", "/usr/sbin/slurmd", "-D", "-f", f.conf.toString(), "-N", f.host);
            f.waitFor(() -> f.client("sinfo", "-h", "-N", "-o", "%T").out().strip().equals("idle"), "the node to be idle");
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
        f.startTime = Duration.ofNanos(System.nanoTime() - t0);
        return f;
    }

    private void configure() {
        try {
            Files.createDirectories(dir.resolve("state"));
            Files.createDirectories(dir.resolve("spool"));
            byte[] key = new byte[1024];
            new java.security.SecureRandom().nextBytes(key);
            Path keyFile = dir.resolve("munge.key");
            Files.write(keyFile, key);
            Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
            for (int i = 0; i < gpus; i++) {
                Path dev = dir.resolve("gpu" + i);
                Files.deleteIfExists(dev);
                Files.createSymbolicLink(dev, Path.of("/dev/null"));
            }
            int ctldPort = freePort();
            int slurmdPort = freePort();
            String d = dir.toString();
            Files.writeString(conf, String.join("\n",
                    "ClusterName=nvidbtest",
                    "SlurmctldHost=" + host + "(127.0.0.1)",
                    "SlurmctldPort=" + ctldPort,
                    "SlurmdPort=" + slurmdPort,
                    "SlurmUser=root",
                    "SlurmdUser=root",
                    "AuthType=auth/munge",
                    "CredType=cred/munge",
                    "AuthInfo=socket=" + d + "/munge.socket",
                    "StateSaveLocation=" + d + "/state",
                    "SlurmdSpoolDir=" + d + "/spool",
                    "SlurmctldPidFile=" + d + "/slurmctld.pid",
                    "SlurmdPidFile=" + d + "/slurmd.pid",
                    "SlurmctldLogFile=" + d + "/slurmctld.log",
                    "SlurmdLogFile=" + d + "/slurmd.log",
                    "ProctrackType=proctrack/linuxproc",
                    "TaskPlugin=task/none",
                    "SelectType=select/cons_tres",
                    "SelectTypeParameters=CR_Core",
                    "SlurmdParameters=config_overrides",
                    "GresTypes=gpu",
                    "ReturnToService=2",
                    "MinJobAge=600",
                    "KillWait=3",
                    "MessageTimeout=5",
                    // Schedule every 2 s (the default main pass is a minute apart): tests wait on it.
                    "SchedulerParameters=sched_interval=2,bf_interval=2",
                    "JobAcctGatherType=jobacct_gather/none",
                    "AccountingStorageType=accounting_storage/none",
                    "MpiDefault=none",
                    "SwitchType=switch/none",
                    "NodeName=" + host + " NodeAddr=127.0.0.1 CPUs=16 RealMemory=4000 Gres=gpu:" + gpus
                            + " State=UNKNOWN",
                    "PartitionName=" + PARTITION + " Nodes=" + host + " Default=YES MaxTime=INFINITE State=UP",
                    ""), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("gres.conf"), "NodeName=" + host + " Name=gpu File=" + d + "/gpu[0-"
                    + (gpus - 1) + "]\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The configuration clients need: {@code SLURM_CONF=}this. */
    public Path conf() {
        return conf;
    }

    public String partition() {
        return PARTITION;
    }

    public int gpus() {
        return gpus;
    }

    /** How long {@link #start} took, from writing the configuration to an idle node. */
    public Duration startTime() {
        return startTime;
    }

    /** What a client printed, and how it exited (124 when it ran out of time). */
    public record Answer(int exit, String out) {
    }

    /** Runs one Slurm client ({@code squeue}, {@code scancel}…) against this cluster, with a time limit. */
    public Answer client(String... args) {
        List<String> cmd = new ArrayList<>(List.of("timeout", String.valueOf(CLIENT_TIMEOUT_S)));
        cmd.addAll(List.of(args));
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("SLURM_CONF", conf.toString());
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(CLIENT_TIMEOUT_S + 5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Answer(124, out);
            }
            return new Answer(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The state Slurm gives its job {@code id} ({@code RUNNING}, {@code PENDING}…), or "" when it knows none. */
    public String state(String id) {
        return client("squeue", "-h", "--states=all", "-j", id, "-o", "%T").out().strip();
    }

    /**
     * Cancels every job of the cluster and waits until Slurm holds none (completing ones
     * included): a job still finishing writes into its run directory, which a test's temporary
     * folder must be able to delete.
     */
    public void cancelAll() {
        client("scancel", "--partition=" + PARTITION, "--full");
        waitFor(() -> {
            Answer left = client("squeue", "-h", "-o", "%i");
            return left.exit() == 0 && left.out().isBlank();
        }, "every cancelled job to leave Slurm");
    }

    /** Starts slurmctld (again, after {@link #stopController}): it recovers its jobs from its state folder. */
    public void startController() {
        slurmctld = daemon("slurmctld", "/usr/sbin/slurmctld", "-D", "-f", conf.toString());
        waitFor(() -> client("sinfo", "-h", "-o", "%P").exit() == 0, "slurmctld to answer");
    }

    /** Stops slurmctld by its pid; running jobs keep running under slurmd. */
    public void stopController() {
        stop(slurmctld);
        slurmctld = null;
    }

    private Process daemon(String name, String... command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".out").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("SLURM_CONF", conf.toString());
            Process p = pb.start();
            owned.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void waitFor(java.util.function.BooleanSupplier ready, String what) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (Process p : owned) {
                if (!p.isAlive() && (p == munged || p == slurmctld || p == slurmd)) {
                    throw new IllegalStateException("a Slurm daemon exited (" + p.exitValue() + ") while waiting for "
                            + what + ":\n" + logs());
                }
            }
            if (ready.getAsBoolean()) {
                return;
            }
            sleep(100);
        }
        throw new IllegalStateException("Slurm did not get ready within " + START_TIMEOUT + " (" + what + "):\n" + logs());
    }

    /** The ends of the daemons' logs, for a failure message. */
    public String logs() {
        StringBuilder sb = new StringBuilder();
        for (String f : List.of("munged.log", "slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out")) {
            Path p = dir.resolve(f);
            try {
                if (Files.exists(p)) {
                    List<String> lines = Files.readAllLines(p);
                    sb.append("--- ").append(f).append('\n');
                    lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> sb.append(l).append('\n'));
                }
            } catch (IOException ignored) {
                // a log that cannot be read adds nothing
            }
        }
        return sb.toString();
    }

    /** Cancels every job, then stops slurmd, slurmctld and munged by pid, and waits for them. */
    @Override
    public void close() {
        if (slurmctld != null && slurmctld.isAlive()) {
            cancelAll();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline
                    && !client("squeue", "-h", "-t", "RUNNING,COMPLETING,CONFIGURING", "-o", "%i").out().isBlank()) {
                sleep(200);
            }
        }
        stop(slurmd);
        stop(slurmctld);
        stop(munged);
        for (Process p : owned) {
            stop(p);
        }
    }

    private static void stop(Process p) {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The name slurmctld knows this host by ({@code hostname -s}): it refuses to control a host of another name. */
    private static String shortHostname() {
        try {
            Process p = new ProcessBuilder("hostname", "-s").redirectErrorStream(true).start();
            String name = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(5, TimeUnit.SECONDS);
            return name.isEmpty() ? "localhost" : name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
