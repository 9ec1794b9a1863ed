package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One shared account on the queue host, one SSH key a user, each key's forced command
 * {@code nvidb queue users login NAME} written by {@code queue users add}: through a real OpenSSH
 * sshd on loopback, a laptop's forwarded commands ({@code remote:}) act as the key's user whatever
 * the laptop's environment says, the ownership rule holds between them, an admin key acts on any
 * job, and a key asking for anything but nvidb (a shell, scp) gets nothing.
 */
class SharedAccountTest extends QueueHostTest {
    Path authorizedKeys;
    Cli alice;
    Cli bob;
    Cli carol;

    @BeforeEach
    void registerThreeKeys() throws Exception {
        q.host.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.5\n  admins: [carol]\n  job_root: "
                + tmp.resolve("host/jobs") + "\n  lane_spool_root: " + tmp.resolve("host/spool") + "\n");
        authorizedKeys = q.sshd.dir().resolve("authorized_keys");
        alice = laptop("alice");
        bob = laptop("bob");
        carol = laptop("carol");
    }

    /** A user's laptop: a key of their own, registered on the shared account, and remote: naming the host. */
    private Cli laptop(String user) throws Exception {
        Path key = tmp.resolve("keys/" + user);
        Files.createDirectories(key.getParent());
        QueueUsersTest.exec(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", user + "@laptop", "-f", key.toString()));
        Cli.Result added = q.host.run("queue", "users", "add", user, "--key", key + ".pub", "--nvidb", q.hostNvidb.toString(),
                "--authorized-keys", authorizedKeys.toString());
        assertEquals(0, added.exit(), added.toString());
        Cli laptop = new Cli(tmp.resolve(user)).env("PWD", q.clientWorkdir.toString());
        q.remote(laptop, key, q.hostNvidb.toString(), "off");
        return laptop;
    }

    /** {@code ssh} with {@code user}'s key to the shared account, asking for {@code command} (none: a login). */
    private Cli.Result ssh(String user, String... command) throws Exception {
        List<String> argv = new ArrayList<>(List.of("ssh", "-T", "-e", "none", "-p", String.valueOf(q.sshd.port()),
                "-l", q.sshd.user(), "-o", "BatchMode=yes", "-o", "IdentityFile=" + tmp.resolve("keys/" + user),
                "-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=" + q.knownHosts, "-o", "StrictHostKeyChecking=yes",
                q.sshd.host()));
        argv.addAll(List.of(command));
        Process p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        return Cli.finish(p, 120);
    }

    private static long submit(Cli who, String... extra) {
        List<String> args = new ArrayList<>(List.of("job", "submit", "--gpus", "0", "--no-tick"));
        args.addAll(List.of(extra));
        args.addAll(List.of("--", "true"));
        return who.json(args.toArray(String[]::new)).path("job").path("id").asLong();
    }

    @Test
    void eachKeyActsAsItsUserAndTheOwnershipRuleHoldsBetweenThem() {
        long hers = submit(alice);
        JsonNode onHost = q.host.json("job", "show", String.valueOf(hers), "--no-tick");
        assertEquals("alice", onHost.path("user").asText(), onHost.toString());

        // Bob's laptop claims to be alice every way a client could: nothing of it reaches the host's identity.
        bob.env("USER", "alice").env("LOGNAME", "alice").env("NVIDB_SUBMITTER", "alice")
                .env("JAVA_TOOL_OPTIONS", "-Duser.name=alice");
        long his = submit(bob, "--submitter", "alice");
        JsonNode bobs = q.host.json("job", "show", String.valueOf(his), "--no-tick");
        assertEquals("bob", bobs.path("user").asText(), bobs.toString());
        assertEquals("alice", bobs.path("submitter").asText(), "the submitter stays the free label");

        Cli.Result refused = bob.run("job", "cancel", String.valueOf(hers), "--json");
        assertEquals(77, refused.exit(), refused.toString());
        assertEquals("forbidden", refused.json().path("code").asText());
        assertTrue(refused.json().path("error").asText().contains("is alice's"), refused.toString());
        assertEquals("pending", q.host.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());

        Cli.Result own = bob.run("job", "cancel", String.valueOf(his), "--json");
        assertEquals(0, own.exit(), own.toString());

        Cli.Result admin = carol.run("job", "cancel", String.valueOf(hers), "--json");
        assertEquals(0, admin.exit(), "carol is one of queue.admins: " + admin);
        assertEquals("cancelled", q.host.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());
        JsonNode events = q.host.json("queue", "events", "--job", String.valueOf(hers), "--no-tick").path("events");
        JsonNode last = events.get(events.size() - 1);
        assertEquals("carol", last.path("by").path("account").asText(), last.toString());
    }

    @Test
    void aHeaderCarryingVariablesThatPickTheQueuesFilesChangesNothing() throws Exception {
        long hers = submit(alice);
        // A queue.yml of bob's making, naming himself an admin (owned by this account: only the filter stops it).
        Path evil = Files.writeString(tmp.resolve("evil.yml"), "queue:\n  admins: [bob]\n");
        List<String> argv = new ArrayList<>(List.of("ssh", "-T", "-e", "none", "-p", String.valueOf(q.sshd.port()),
                "-l", q.sshd.user(), "-o", "BatchMode=yes", "-o", "IdentityFile=" + tmp.resolve("keys/bob"),
                "-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=" + q.knownHosts, q.sshd.host(),
                "env", "NVIDB_HOME=" + q.host.nvidbHome(), "nvidb", "--forward-protocol=1"));
        Process p = new ProcessBuilder(argv).start();
        try (java.io.OutputStream in = p.getOutputStream()) {
            in.write(nvidb.cli.forward.ForwardedHeaders.headerThenEnd(List.of("job", "cancel", String.valueOf(hers), "--json"),
                    java.util.Map.of("NVIDB_QUEUE_CONFIG", evil.toString(), "NVIDB_HOME", tmp.resolve("elsewhere").toString(),
                            "NVIDB_SUBMITTER", "bob's agent")));
            in.flush();
            assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the forwarded command ended");
        }
        Cli.Result r = Cli.finish(p, 10);
        assertEquals(77, r.exit(), r.toString());
        assertTrue(r.out().startsWith("nvidb-forwarded/1\n") && r.out().contains("is alice's"), r.toString());
        assertEquals("pending", q.host.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());
        assertFalse(Files.exists(tmp.resolve("elsewhere")), "no queue made where the header said");
    }

    @Test
    void theKeeperPreludeOfAForwardedCommandStartsTheHostsKeeper() throws Exception {
        Cli.Result installed = q.host.run("queue", "keeper", "install", "--nvidb", q.hostNvidb.toString(),
                "--interval", "5", "--json");
        assertEquals(0, installed.exit(), installed.toString());
        try {
            assertEquals(1, q.host.run("queue", "keeper", "status").exit(), "installed, not started");
            q.remote(alice, tmp.resolve("keys/alice"), q.hostNvidb.toString(), "ensure");
            Cli.Result r = alice.run("job", "ls", "--no-tick", "--json");
            assertEquals(0, r.exit(), r.toString());
            assertEquals("", r.err(), "a keeper that could be started is not worth a word");
            Cli.Result status = q.host.run("queue", "keeper", "status", "--json");
            assertEquals(0, status.exit(), "alice's forwarded command started it: " + status);
            assertTrue(status.json().path("keeper").path("up").asBoolean(), status.toString());
        } finally {
            q.host.run("queue", "keeper", "stop");
            q.host.run("queue", "keeper", "uninstall");
        }
    }

    @Test
    void anAgentsMcpSessionThroughTheSharedAccountIsTheKeysUser() throws Exception {
        List<String> command = new ArrayList<>(alice.javaCommand());
        command.add("mcp");
        ProcessBuilder pb = new ProcessBuilder(command).directory(q.clientWorkdir.toFile());
        pb.environment().clear();
        pb.environment().putAll(alice.environment());
        pb.environment().put("NVIDB_SUBMITTER", "bob"); // a label, which names nobody
        Process relay = pb.start();
        try {
            java.io.OutputStream in = relay.getOutputStream();
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(relay.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"agent\",\"version\":\"1\"}}}");
            assertEquals("nvidb", answer(out, 1).path("result").path("serverInfo").path("name").asText());
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"submit\","
                    + "\"arguments\":{\"gpus\":0,\"no_tick\":true,\"command\":[\"true\"]}}}");
            JsonNode answered = answer(out, 2);
            long id = answered.path("result").path("structuredContent").path("job").path("id").asLong();
            assertTrue(id > 0, answered.toString());
            JsonNode job = q.host.json("job", "show", String.valueOf(id), "--no-tick");
            assertEquals("alice", job.path("user").asText(), job.toString());
            assertEquals("bob", job.path("submitter").asText());
            in.close();
            assertTrue(relay.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the relay ends when the client closes stdin");
        } finally {
            relay.destroyForcibly();
        }
    }

    private static void send(java.io.OutputStream in, String line) throws java.io.IOException {
        in.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        in.flush();
    }

    private static JsonNode answer(java.io.BufferedReader out, int id) throws java.io.IOException {
        String line;
        while ((line = out.readLine()) != null) {
            JsonNode m = Cli.JSON.readTree(line);
            if (m.path("id").asInt(-1) == id && !m.has("method")) {
                return m;
            }
        }
        throw new AssertionError("the relay ended before answering " + id);
    }

    @Test
    void aKeyGetsNoShellNoScpNoOtherProgramAndALoginSaysWhoItIs() throws Exception {
        for (String[] asked : new String[][] {{"sh", "-c", "'id > " + tmp.resolve("pwned") + "'"}, {"bash"},
                {"scp", "-t", tmp.resolve("copied").toString()}, {"nvidb", "queue", "status", ";", "touch", tmp.resolve("pwned").toString()}}) {
            Cli.Result r = ssh("bob", asked);
            assertEquals(77, r.exit(), String.join(" ", asked) + ": " + r);
            assertTrue(r.err().startsWith("error: this key (bob) runs nvidb commands only"), r.toString());
            assertEquals(1, r.err().strip().lines().count(), "one clear line: " + r);
            assertEquals("", r.out());
        }
        Path sent = Files.writeString(tmp.resolve("sent.txt"), "data");
        Process scp = new ProcessBuilder("scp", "-O", "-P", String.valueOf(q.sshd.port()), "-o", "BatchMode=yes",
                "-o", "IdentityFile=" + tmp.resolve("keys/bob"), "-o", "IdentitiesOnly=yes",
                "-o", "UserKnownHostsFile=" + q.knownHosts, sent.toString(),
                q.sshd.user() + "@" + q.sshd.host() + ":" + tmp.resolve("copied")).start();
        Cli.Result copied = Cli.finish(scp, 120);
        assertTrue(copied.exit() != 0, copied.toString());
        assertFalse(Files.exists(tmp.resolve("copied")));
        assertFalse(Files.exists(tmp.resolve("pwned")));

        // Nor may a key's user change the shared account's keys (one as carol, the admin, say).
        Cli.Result addKey = ssh("bob", "nvidb", "queue", "users", "add", "carol2", "--key", tmp.resolve("keys/bob.pub").toString(),
                "--authorized-keys", authorizedKeys.toString());
        assertEquals(77, addKey.exit(), addKey.toString());
        assertTrue(addKey.err().contains("only that account itself may add a key"), addKey.toString());
        assertEquals(77, ssh("bob", "nvidb", "queue", "users", "rm", "alice", "--authorized-keys", authorizedKeys.toString()).exit());
        assertTrue(Files.readString(authorizedKeys).contains("nvidb-user:alice"));
        assertFalse(Files.readString(authorizedKeys).contains("carol2"));
        Cli.Result again = ssh("bob", "nvidb", "queue", "users", "login", "alice");
        assertEquals(64, again.exit(), "a login within a login is no command: " + again);

        Cli.Result login = ssh("bob");
        assertEquals(64, login.exit(), login.toString());
        assertTrue(login.err().contains("You are bob on this queue"), login.toString());

        // nvidb typed over ssh is fine, as the key's user.
        long hers = submit(alice);
        Cli.Result typed = ssh("bob", "env", "NVIDB_HOME=" + q.host.nvidbHome(), "nvidb", "job", "cancel", String.valueOf(hers),
                "--json");
        assertEquals(77, typed.exit(), typed.toString());
        assertTrue(typed.out().contains("is alice's"), typed.toString());
        Cli.Result show = ssh("alice", "env", "NVIDB_HOME=" + q.host.nvidbHome(), "nvidb", "job", "cancel", String.valueOf(hers));
        assertEquals(0, show.exit(), show.toString());
    }

    @Test
    void aKeysUserMakesWebTokensForThemselvesOnly() throws Exception {
        String home = "NVIDB_HOME=" + q.host.nvidbHome();
        Cli.Result others = ssh("alice", "env", home, "nvidb", "queue", "web", "token", "add", "bob", "--json");
        assertEquals(77, others.exit(), others.toString());
        assertTrue(others.out().contains("only bob, an account of queue.admins or the queue's owner"), others.toString());
        Cli.Result own = ssh("alice", "env", home, "nvidb", "queue", "web", "token", "add", "alice", "--json");
        assertEquals(0, own.exit(), own.toString());
        Cli.Result admin = ssh("carol", "env", home, "nvidb", "queue", "web", "token", "revoke", "alice", "--json");
        assertEquals(0, admin.exit(), "carol is one of queue.admins: " + admin);
    }

    @Test
    void theLoginRunByHandOnAQueueAnotherAccountOwnsPosesAsNobody() throws Exception {
        assumeTrue("root".equals(q.sshd.user()), "needs root to give a queue to another account (chown); CI runs as root");
        Cli other = new Cli(tmp.resolve("other"));
        long job = submit(other);
        QueueUsersTest.exec(List.of("chown", "-R", "nobody", other.nvidbHome().toString()));
        // As the forced command would run, but by hand, in an account (root) that does not own this queue.
        List<String> command = new ArrayList<>(other.javaCommand());
        command.addAll(List.of("queue", "users", "login", "alice"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(other.environment());
        pb.environment().put("SSH_ORIGINAL_COMMAND", "nvidb job cancel " + job + " --json");
        Cli.Result r = Cli.finish(pb.start(), 120);
        assertEquals(77, r.exit(), r.toString());
        assertTrue(r.out().contains("acts for alice only on a queue the account root owns"), r.toString());
        assertTrue(r.out().contains("nobody's"), r.toString());
        QueueUsersTest.exec(List.of("chown", "-R", "root", other.nvidbHome().toString()));
        assertEquals("pending", other.json("job", "show", String.valueOf(job), "--no-tick").path("state").asText());
    }
}
