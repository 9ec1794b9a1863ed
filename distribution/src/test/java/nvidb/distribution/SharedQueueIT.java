package nvidb.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two real Unix accounts share one queue: {@code queue share} makes the database's folder the
 * group's, each member's nvidb (the built image, run as that account with umask 077) opens the one
 * file, and the rules hold between them: a job is changed by its own account and by
 * {@code queue.admins}, read by everyone. Creating accounts needs root (as in CI); elsewhere the test
 * is skipped, saying so.
 */
class SharedQueueIT {
    private final String suffix = String.valueOf(ThreadLocalRandom.current().nextInt(100000, 999999));
    private final String group = "nvq" + suffix;
    private final String alice = "nvqa" + suffix;
    private final String bob = "nvqb" + suffix;
    private Path base;
    private Path nvidb;
    private Path db;

    private static Result sh(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        return new Result(p.exitValue(), out, err);
    }

    record Result(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return Client.JSON.readTree(out);
        }
    }

    @BeforeEach
    void accounts() throws Exception {
        boolean root = sh("id", "-u").out().strip().equals("0");
        Assumptions.assumeTrue(root && Files.isExecutable(Path.of("/usr/sbin/useradd")) && Files.isExecutable(Path.of("/usr/sbin/runuser")),
                "SharedQueueIT needs root and useradd, groupadd, runuser (packages passwd, util-linux) to make Unix accounts: skipped");
        assertEquals(0, sh("groupadd", group).exit());
        for (String u : List.of(alice, bob)) {
            Result r = sh("useradd", "-M", "-N", "-s", "/bin/sh", "-G", group, u);
            assertEquals(0, r.exit(), r.err());
        }
        base = Files.createTempDirectory(Path.of("/tmp"), "nvidb-shared-");
        assertEquals(0, sh("chmod", "755", base.toString()).exit());
        nvidb = Client.image();
        if (sh("runuser", "-u", alice, "--", "test", "-x", nvidb.toString()).exit() != 0) {
            // The image lies where another account cannot reach it (a private checkout): a readable copy.
            Path image = nvidb.getParent().getParent();
            assertEquals(0, sh("cp", "-a", image.toString(), base.resolve("image").toString()).exit());
            assertEquals(0, sh("chmod", "-R", "a+rX", base.resolve("image").toString()).exit());
            nvidb = base.resolve("image/bin/nvidb");
        }
        for (String u : List.of(alice, bob, "root")) {
            assertEquals(0, sh("install", "-d", "-o", u, "-m", "700", base.resolve("home-" + u).toString()).exit());
        }
        db = base.resolve("queue/queue.db");
    }

    @AfterEach
    void removeAccounts() throws Exception {
        if (base == null) {
            return;
        }
        for (String u : List.of(alice, bob)) {
            sh("pkill", "-KILL", "-u", u);
            sh("userdel", u);
        }
        sh("groupdel", group);
        try (Stream<Path> files = Files.walk(base)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** nvidb as {@code user}, with umask 077, its own NVIDB_HOME and the shared database. */
    private Result as(String user, String... args) throws Exception {
        return sh(asCommand(user, args).toArray(String[]::new));
    }

    private List<String> asCommand(String user, String... args) {
        List<String> command = new ArrayList<>(List.of("runuser", "-u", user, "--", "sh", "-c", "umask 077; exec \"$@\"",
                "sh", "env", "NVIDB_HOME=" + base.resolve("home-" + user), "NVIDB_QUEUE_DB=" + db, "USER=" + bob,
                "NVIDB_SUBMITTER=agent-of-" + user, nvidb.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode") & 07777;
    }

    @Test
    void twoAccountsShareOneQueueAndEachChangesOnlyTheirOwnJobs() throws Exception {
        Result shared = as("root", "queue", "share", "--group", group, "--json");
        assertEquals(0, shared.exit(), shared.err());
        assertEquals("export NVIDB_QUEUE_DB=" + db, shared.json().path("member_setup").asText());
        assertEquals(02770, mode(db.getParent()));

        Result a = as(alice, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--name", "alices", "--", "true");
        assertEquals(0, a.exit(), a.err());
        long hers = a.json().path("job").path("id").asLong();
        assertEquals(alice, a.json().path("job").path("user").asText(), "USER=" + bob + " changes nothing");
        // Alice keeps the queue open (a wait): SQLite's -wal and -shm exist while she does, and bob uses them.
        Process waiting = new ProcessBuilder(asCommand(alice, "job", "wait", String.valueOf(hers), "--no-tick",
                "--timeout", "120")).redirectErrorStream(true).redirectOutput(base.resolve("wait.out").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (Files.notExists(Path.of(db + "-shm")) || Files.notExists(Path.of(db + "-wal"))) {
                assertTrue(System.nanoTime() < deadline, "alice's wait opened no WAL: " + Files.readString(base.resolve("wait.out")));
                Thread.sleep(100);
            }
            for (String end : List.of("", "-wal", "-shm")) {
                Path f = Path.of(db + end);
                assertEquals(0660, mode(f), f + " is group read-write whatever the umask");
                assertEquals(group, Files.getAttribute(f, "posix:group").toString());
            }
            bobAndAlice(hers);
        } finally {
            waiting.destroyForcibly();
        }
    }

    private void bobAndAlice(long hers) throws Exception {

        Result read = as(bob, "job", "show", String.valueOf(hers), "--json", "--no-tick");
        assertEquals(0, read.exit(), read.err());
        assertEquals(alice, read.json().path("user").asText(), "everyone may read everything");
        Result refused = as(bob, "job", "cancel", String.valueOf(hers), "--json");
        assertEquals(77, refused.exit(), refused.out() + refused.err());
        assertEquals("forbidden", refused.json().path("code").asText());
        assertTrue(refused.json().path("error").asText().contains("is " + alice + "'s"), refused.out());
        Result note = as(bob, "job", "note", String.valueOf(hers), "bob was here", "--json");
        assertEquals(77, note.exit(), note.out());

        Result b = as(bob, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true");
        long his = b.json().path("job").path("id").asLong();
        assertEquals(0, as(bob, "job", "cancel", String.valueOf(his)).exit(), "his own");
        assertEquals(0, as(alice, "job", "note", String.valueOf(hers), "mine").exit(), "hers");

        // The queue's owner, made an admin in their own configuration, may act on any job.
        assertEquals(77, as("root", "job", "cancel", String.valueOf(hers), "--json").exit());
        Files.writeString(base.resolve("home-root/queue.yml"), "queue:\n  admins: [root]\n");
        Result admin = as("root", "job", "cancel", String.valueOf(hers), "--json");
        assertEquals(0, admin.exit(), admin.out() + admin.err());
        assertEquals("cancelled", as(alice, "job", "show", String.valueOf(hers), "--json", "--no-tick").json()
                .path("state").asText());

        // doctor checks the sharing: a queue file another member cannot write fails it.
        assertEquals("ok", check(as(alice, "doctor", "--json"), "shared queue").path("level").asText());
        Files.setPosixFilePermissions(db, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        JsonNode broken = check(as("root", "doctor", "--json"), "shared queue");
        assertEquals("fail", broken.path("level").asText(), broken.toString());
        assertTrue(broken.path("fix").asText().contains("nvidb queue share --group " + group), broken.toString());
    }

    @Test
    void eachAccountsQuotaHoldsItsOwnSubmitsAndStatusListsEveryone() throws Exception {
        assertEquals(0, as("root", "queue", "share", "--group", group).exit());
        String lab = "queue:\n  users:\n    default:\n      max_pending: 3\n    " + alice + ":\n      max_pending: 1\n"
                + "      share: 2\n";
        for (String u : List.of(alice, bob)) {
            Path config = base.resolve("home-" + u + "/queue.yml");
            Files.writeString(config, lab);
            assertEquals(0, sh("chown", u, config.toString()).exit());
        }
        assertEquals(0, as(alice, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true").exit());
        Result second = as(alice, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true");
        assertEquals(75, second.exit(), second.out() + second.err());
        assertEquals("quota", second.json().path("code").asText());
        assertTrue(second.json().path("error").asText().startsWith("quota: " + alice + " has 1 of 1 jobs waiting"),
                second.out());
        // bob's limit is the default's, and USER=bob in alice's environment (asCommand) gave her none of it.
        for (int i = 0; i < 3; i++) {
            Result b = as(bob, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true");
            assertEquals(0, b.exit(), b.out() + b.err());
        }
        assertEquals(75, as(bob, "job", "submit", "--json", "--gpus", "0", "--no-tick", "--", "true").exit());
        JsonNode users = as(alice, "queue", "status", "--json", "--no-tick").json().path("users");
        java.util.Map<String, JsonNode> byName = new java.util.HashMap<>();
        users.forEach(u -> byName.put(u.path("user").asText(), u));
        assertEquals(1, byName.get(alice).path("pending").asInt(), users.toString());
        assertEquals(2.0, byName.get(alice).path("share").asDouble(), users.toString());
        assertEquals(1, byName.get(alice).path("limits").path("max_pending").asInt(), users.toString());
        assertEquals(3, byName.get(bob).path("pending").asInt(), users.toString());
        assertEquals(3, byName.get(bob).path("limits").path("max_pending").asInt(), users.toString());
    }

    private static JsonNode check(Result doctor, String name) throws IOException {
        for (JsonNode c : doctor.json().path("checks")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no " + name + " check: " + doctor.out());
    }

    @Test
    void aGroupThatDoesNotExistIsAUsageError() throws Exception {
        Result r = as("root", "queue", "share", "--group", "no-such-group-" + suffix, "--json");
        assertEquals(64, r.exit(), r.out());
        assertTrue(r.json().path("error").asText().contains("groupadd"), r.out());
        assertTrue(Files.notExists(db.getParent()), "nothing was made");
    }
}
