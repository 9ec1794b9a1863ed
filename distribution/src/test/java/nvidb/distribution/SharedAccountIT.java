package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built image on a queue host with one shared account (a real Unix account made for the
 * test) and a real OpenSSH sshd on loopback: {@code queue users add}, run as that account, writes
 * its {@code ~/.ssh/authorized_keys} with the image's own launcher in each forced command; laptops
 * ({@code remote:} naming the shared account, each with its own key) then act as their key's user:
 * alice's job is alice's, bob cannot cancel it (77, naming alice), the admin's key can, and a key
 * asking for a shell or scp gets nothing. Making an account needs root (as in CI); elsewhere the
 * test is skipped, saying so.
 */
class SharedAccountIT {
    private final String shared = "nvqs" + ThreadLocalRandom.current().nextInt(100000, 999999);
    private Path base;
    private Path home;
    private Path nvidb;
    private SshdFixture sshd;

    record Result(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return Client.JSON.readTree(out);
        }
    }

    private static Result run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(new java.io.File("/tmp")).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end");
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static Result sh(String... command) throws Exception {
        return run(List.of(command));
    }

    @BeforeEach
    void sharedAccountAndSshd() throws Exception {
        boolean root = sh("id", "-u").out().strip().equals("0");
        Assumptions.assumeTrue(root && Files.isExecutable(Path.of("/usr/sbin/useradd")) && Files.isExecutable(Path.of("/usr/sbin/runuser"))
                && SshdFixture.available(), "SharedAccountIT needs root, useradd and runuser (packages passwd, util-linux) to make"
                + " the shared account, and " + SshdFixture.MISSING + ": skipped");
        base = Files.createTempDirectory(Path.of("/tmp"), "nvidb-shared-account-");
        assertEquals(0, sh("chmod", "755", base.toString()).exit());
        home = base.resolve("home");
        Result added = sh("useradd", "-m", "-d", home.toString(), "-s", "/bin/sh", shared);
        assertEquals(0, added.exit(), added.err());
        // Not locked ('*': no password, keys only): sshd refuses a locked account even its keys.
        assertEquals(0, sh("usermod", "-p", "*", shared).exit());
        nvidb = Client.image();
        if (sh("runuser", "-u", shared, "--", "test", "-x", nvidb.toString()).exit() != 0) {
            Path image = nvidb.getParent().getParent();
            assertEquals(0, sh("cp", "-a", image.toString(), base.resolve("image").toString()).exit());
            assertEquals(0, sh("chmod", "-R", "a+rX", base.resolve("image").toString()).exit());
            nvidb = base.resolve("image/bin/nvidb");
        }
        hostSays(".nvidb/queue.yml", "queue:\n  admins: [carol]\n");
        // The account's own authorized_keys, as a real host has it (the fixture's line comes after and loses).
        sshd = SshdFixture.launch("AuthorizedKeysFile .ssh/authorized_keys", "StrictModes yes");
    }

    @AfterEach
    void removeAccount() throws Exception {
        if (sshd != null) {
            sshd.close();
        }
        if (base == null) {
            return;
        }
        sh("pkill", "-KILL", "-u", shared);
        sh("userdel", shared);
        try (Stream<Path> files = Files.walk(base)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private void hostSays(String relative, String content) throws Exception {
        Path file = home.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        assertEquals(0, sh("chown", "-R", shared + ":", home.toString()).exit());
    }

    /** nvidb as the shared account, in its own shell environment. */
    private Result asShared(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("runuser", "-u", shared, "--", "env", "-i", "HOME=" + home,
                "USER=" + shared, "PATH=/usr/bin:/bin", nvidb.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    /** A laptop of {@code user}'s: a key of their own, registered by the shared account, and remote: naming it. */
    private Path laptop(String user) throws Exception {
        Path dir = Files.createDirectories(base.resolve("laptop-" + user));
        Path key = dir.resolve("id_ed25519");
        assertEquals(0, sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", user, "-f", key.toString()).exit());
        Path pub = base.resolve(user + ".pub");
        Files.copy(Path.of(key + ".pub"), pub);
        assertEquals(0, sh("chmod", "644", pub.toString()).exit());
        Result added = asShared("queue", "users", "add", user, "--key", pub.toString(), "--json");
        assertEquals(0, added.exit(), added.out() + added.err());
        Files.writeString(dir.resolve("known_hosts"), sshd.hostKeyLine() + "\n");
        Files.createDirectories(dir.resolve(".nvidb"));
        Files.writeString(dir.resolve(".nvidb/queue.yml"), "remote:\n  host: " + sshd.host() + "\n  port: " + sshd.port()
                + "\n  username: " + shared + "\n  nvidb: " + nvidb + "\n  keeper: off\n  ssh_options:\n"
                + "    - \"BatchMode=yes\"\n    - \"IdentityFile=" + key + "\"\n    - \"IdentitiesOnly=yes\"\n"
                + "    - \"UserKnownHostsFile=" + dir.resolve("known_hosts") + "\"\n    - \"StrictHostKeyChecking=yes\"\n");
        return dir;
    }

    /** nvidb on {@code user}'s laptop (this machine, as root, claiming to be alice every way it can). */
    private Result from(Path laptop, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("env", "-i", "PATH=/usr/bin:/bin", "HOME=" + laptop,
                "NVIDB_HOME=" + laptop.resolve(".nvidb"), "USER=alice", "LOGNAME=alice", "NVIDB_SUBMITTER=alice",
                "JAVA_TOOL_OPTIONS=-Duser.name=alice", nvidb.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private List<String> ssh(Path laptop, String... asked) {
        List<String> argv = new ArrayList<>(List.of("ssh", "-T", "-p", String.valueOf(sshd.port()), "-l", shared,
                "-o", "BatchMode=yes", "-o", "IdentityFile=" + laptop.resolve("id_ed25519"), "-o", "IdentitiesOnly=yes",
                "-o", "UserKnownHostsFile=" + laptop.resolve("known_hosts"), sshd.host()));
        argv.addAll(List.of(asked));
        return argv;
    }

    @Test
    void keysOfOneSharedAccountActAsTheirUsers() throws Exception {
        Path alice = laptop("alice");
        Path bob = laptop("bob");
        Path carol = laptop("carol");
        Result ls = asShared("queue", "users", "ls", "--json");
        assertEquals(List.of("alice", "bob", "carol"), ls.json().findValuesAsText("user"));
        String keys = Files.readString(home.resolve(".ssh/authorized_keys"));
        assertTrue(keys.contains("command=\"" + nvidb + " queue users login alice\",restrict ssh-ed25519 "), keys);

        Result submitted = from(alice, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true");
        assertEquals(0, submitted.exit(), submitted.out() + submitted.err());
        long hers = submitted.json().path("job").path("id").asLong();
        assertEquals("alice", submitted.json().path("job").path("user").asText());
        Result his = from(bob, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--submitter", "alice", "--", "true");
        assertEquals("bob", his.json().path("job").path("user").asText(), "bob's laptop claims alice in vain: " + his.out());

        Result refused = from(bob, "job", "cancel", String.valueOf(hers), "--json");
        assertEquals(77, refused.exit(), refused.out() + refused.err());
        assertTrue(refused.json().path("error").asText().contains("is alice's"), refused.out());
        Result admin = from(carol, "job", "cancel", String.valueOf(hers), "--json");
        assertEquals(0, admin.exit(), "carol is one of queue.admins: " + admin.out() + admin.err());
        assertTrue(Files.exists(home.resolve(".nvidb/queue.db")), "the shared account's own queue");

        Result shell = run(ssh(bob, "sh", "-c", "'touch " + base.resolve("pwned") + "'"));
        assertEquals(77, shell.exit(), shell.out() + shell.err());
        assertTrue(shell.err().contains("runs nvidb commands only"), shell.err());
        Result scp = run(List.of("scp", "-O", "-P", String.valueOf(sshd.port()), "-o", "BatchMode=yes",
                "-o", "IdentityFile=" + bob.resolve("id_ed25519"), "-o", "IdentitiesOnly=yes",
                "-o", "UserKnownHostsFile=" + bob.resolve("known_hosts"), bob.resolve("known_hosts").toString(),
                shared + "@" + sshd.host() + ":" + base.resolve("copied")));
        assertTrue(scp.exit() != 0, scp.out() + scp.err());
        assertFalse(Files.exists(base.resolve("copied")) || Files.exists(base.resolve("pwned")));
    }
}
