package nvidb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import nvidb.testkit.ProcessLines;
import nvidb.testkit.SshdFixture;

/**
 * A queue host and a client of it on this machine: a real OpenSSH sshd on a loopback port, a
 * second NVIDB_HOME acting as the queue host's (its nvidb a script running this test's classes),
 * and a client NVIDB_HOME whose queue.yml names that host in remote:. The client's ssh trusts only
 * the fixture's host key and logs in only with its user key, in batch mode.
 */
final class QueueHostFixture implements AutoCloseable {
    final Path tmp;
    final SshdFixture sshd;
    /** Runs nvidb on the queue host's own queue, in this JVM. */
    final Cli host;
    /** Runs nvidb on the client machine, in this JVM: job and queue commands go to the host. */
    final Cli client;
    final Path hostNvidb;
    final Path knownHosts;
    /** The directory the client works in (its PWD). */
    final Path clientWorkdir;

    QueueHostFixture(Path tmp) throws IOException {
        this.tmp = tmp;
        this.sshd = SshdFixture.launch();
        try {
            knownHosts = tmp.resolve("known_hosts");
            Files.writeString(knownHosts, sshd.hostKeyLine() + "\n");
            host = new Cli(tmp.resolve("host"));
            host.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  job_root: " + tmp.resolve("host/jobs")
                    + "\n  lane_spool_root: " + tmp.resolve("host/spool") + "\n");
            hostNvidb = script(tmp.resolve("host/bin/nvidb"), "exec " + String.join(" ",
                    host.javaCommand().stream().map(Cli::q).toList()) + " \"$@\"\n");
            clientWorkdir = Files.createDirectories(tmp.resolve("client/work"));
            client = new Cli(tmp.resolve("client")).env("PWD", clientWorkdir.toString());
            remote(hostNvidb.toString(), "off");
        } catch (IOException | RuntimeException e) {
            sshd.close();
            throw e;
        }
    }

    /** Writes the client's queue.yml: remote: naming the fixture's host, with this nvidb and keeper setting. */
    void remote(String nvidb, String keeper, String... sshOptions) throws IOException {
        remote(client, sshd.userKey(), nvidb, keeper, sshOptions);
    }

    /** Writes {@code someone}'s queue.yml: remote: naming the fixture's host, logging in with {@code key}. */
    void remote(Cli someone, Path key, String nvidb, String keeper, String... sshOptions) throws IOException {
        List<String> options = new ArrayList<>(List.of("BatchMode=yes", "IdentityFile=" + key,
                "IdentitiesOnly=yes", "UserKnownHostsFile=" + knownHosts, "StrictHostKeyChecking=yes"));
        options.addAll(List.of(sshOptions));
        StringBuilder yml = new StringBuilder("# the client\nremote:\n")
                .append("  host: ").append(sshd.host()).append('\n')
                .append("  port: ").append(sshd.port()).append('\n')
                .append("  username: ").append(sshd.user()).append('\n')
                .append("  nvidb: ").append(nvidb).append('\n')
                .append("  nvidb_home: ").append(host.nvidbHome()).append('\n')
                .append("  keeper: ").append(keeper).append('\n')
                .append("  ssh_options:\n");
        options.forEach(o -> yml.append("    - \"").append(o).append("\"\n"));
        someone.write(".nvidb/queue.yml", yml.toString());
    }

    /** The client command as a process of its own, in a process group of its own, as a terminal runs it. */
    Process startClient(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", "env", "--default-signal=INT"));
        command.addAll(client.javaCommand());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(client.environment());
        pb.directory(clientWorkdir.toFile());
        return pb.start();
    }

    /** The nvidb processes clients started on a queue host that still run (this machine's, any fixture's). */
    static List<ProcessHandle> forwardedCommands() {
        return ProcessHandle.allProcesses()
                .filter(p -> ProcessLines.of(p).endsWith("nvidb.cli.Main --forward-protocol=1")).toList();
    }

    /** Waits until a forwarded command runs on the host, and a little longer, for it to reach its wait. */
    static void awaitForwarded(Process client) throws InterruptedException, IOException {
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(60);
        while (forwardedCommands().isEmpty()) {
            if (!client.isAlive() || java.time.Instant.now().isAfter(deadline)) {
                String ps = ProcessHandle.allProcesses().map(h -> h.pid() + " " + ProcessLines.of(h))
                        .filter(l -> l.contains("ssh") || l.contains("nvidb")).collect(java.util.stream.Collectors.joining("\n"));
                java.io.InputStream stderr = client.getErrorStream();
                String said = new String(stderr.readNBytes(stderr.available()), java.nio.charset.StandardCharsets.UTF_8);
                client.destroy();
                throw new AssertionError("the command never started on the host (client alive: " + client.isAlive()
                        + "); the client said: " + said + "\nprocesses:\n" + ps);
            }
            Thread.sleep(100);
        }
        Thread.sleep(1500);
    }

    /** What a terminal does on Ctrl-C: SIGINT to every process of the foreground group (the client and its ssh). */
    static void terminalCtrlC(Process client) throws IOException, InterruptedException {
        if (new ProcessBuilder("kill", "-INT", "--", "-" + client.pid()).start().waitFor() != 0) {
            throw new AssertionError("kill -INT of the client's process group failed");
        }
    }

    /** Waits until no forwarded command runs on the host (30 s at most). */
    static void awaitNoForwardedCommand() throws InterruptedException {
        java.time.Instant deadline = java.time.Instant.now().plusSeconds(30);
        while (!forwardedCommands().isEmpty()) {
            if (java.time.Instant.now().isAfter(deadline)) {
                throw new AssertionError("the command still runs on the host: " + forwardedCommands());
            }
            Thread.sleep(100);
        }
    }

    static Path script(Path file, String body) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Override
    public void close() {
        sshd.close();
    }
}
