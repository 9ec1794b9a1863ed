package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue users add/ls/rm} on a real authorized_keys file, with keys ssh-keygen made: the
 * lines nvidb writes, what it refuses, the lines it did not write kept, fingerprints as
 * ssh-keygen prints them, and concurrent adds that all land.
 */
class QueueUsersTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path keys;

    @BeforeEach
    void setUp() {
        assumeTrue(java.nio.file.Files.isExecutable(Path.of("/usr/bin/ssh-keygen")), "ssh-keygen is not installed (openssh-client)");
        cli = new Cli(tmp);
        keys = tmp.resolve("home/.ssh/authorized_keys");
    }

    private Path keygen(String name) throws Exception {
        Path key = tmp.resolve("keys/" + name);
        Files.createDirectories(key.getParent());
        exec(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name + "@laptop", "-f", key.toString()));
        return Path.of(key + ".pub");
    }

    /** Runs a program to its end and returns its stdout; a failure fails the test. */
    static String exec(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        Cli.Result r = Cli.finish(p, 60);
        assertEquals(0, r.exit(), command + ": " + r);
        return r.out();
    }

    private Cli.Result users(String... args) {
        List<String> all = new ArrayList<>(List.of("queue", "users"));
        all.addAll(List.of(args));
        all.addAll(List.of("--authorized-keys", keys.toString()));
        return cli.run(all.toArray(String[]::new));
    }

    @Test
    void addWritesAForcedRestrictedLineAndLsShowsTheFingerprintSshKeygenPrints() throws Exception {
        Path alice = keygen("alice");
        Cli.Result added = users("add", "alice", "--key", alice.toString(), "--nvidb", "/opt/nvidb dir/bin/nvidb", "--json");
        assertEquals(0, added.exit(), added.toString());
        String line = Files.readString(keys).strip();
        String[] pub = Files.readString(alice).strip().split(" ");
        assertEquals("command=\"'/opt/nvidb dir/bin/nvidb' queue users login alice\",restrict " + pub[0] + " " + pub[1]
                + " nvidb-user:alice", line);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.getParent())));

        String fingerprint = exec(List.of("ssh-keygen", "-l", "-E", "sha256", "-f", alice.toString())).split(" ")[1];
        assertEquals(fingerprint, added.json().path("fingerprint").asText());
        JsonNode ls = cli.json("queue", "users", "ls", "--authorized-keys", keys.toString());
        assertEquals(1, ls.size());
        assertEquals("alice", ls.get(0).path("user").asText());
        assertEquals("ssh-ed25519", ls.get(0).path("key_type").asText());
        assertEquals(fingerprint, ls.get(0).path("fingerprint").asText());
        // sshd reads the line nvidb wrote: ssh-keygen parses the file and finds the key in it.
        String found = exec(List.of("ssh-keygen", "-l", "-f", keys.toString()));
        assertTrue(found.contains(fingerprint), found);
    }

    @Test
    void withoutAFileNamedItIsTheAccountsOwnUnderHome() throws Exception {
        Cli.Result added = cli.run("queue", "users", "add", "dave", "--key", keygen("dave").toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(0, added.exit(), added.toString());
        assertTrue(Files.readString(tmp.resolve(".ssh/authorized_keys")).contains("nvidb-user:dave"));
        assertEquals("dave", cli.json("queue", "users", "ls").get(0).path("user").asText());
    }

    @Test
    void refusesABadNameANonKeyAndAKeyAlreadyRegistered() throws Exception {
        Path alice = keygen("alice");
        Cli.Result badName = users("add", "Alice!", "--key", alice.toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(64, badName.exit(), badName.toString());
        assertTrue(badName.err().contains("account-like"), badName.toString());

        Cli.Result privateKey = users("add", "alice", "--key", tmp.resolve("keys/alice").toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(64, privateKey.exit(), privateKey.toString());
        assertTrue(privateKey.err().contains("is not one OpenSSH public key"), privateKey.toString());

        Path two = tmp.resolve("two.pub");
        Files.writeString(two, Files.readString(alice) + Files.readString(keygen("bob")));
        Cli.Result twoKeys = users("add", "alice", "--key", two.toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(64, twoKeys.exit(), twoKeys.toString());
        assertTrue(twoKeys.err().contains("2 key lines"), twoKeys.toString());

        Cli.Result relative = users("add", "alice", "--key", alice.toString(), "--nvidb", "bin/nvidb");
        assertEquals(64, relative.exit(), relative.toString());

        assertEquals(0, users("add", "alice", "--key", alice.toString(), "--nvidb", "/usr/bin/nvidb").exit());
        Cli.Result again = users("add", "mallory", "--key", alice.toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(4, again.exit(), again.toString());
        assertTrue(again.err().contains("already in " + keys + ", for alice"), again.toString());
        assertFalse(Files.readString(keys).contains("mallory"));
        assertFalse(Files.exists(keys.resolveSibling("nvidb")), "no stray files");
    }

    @Test
    void linesNvidbDidNotWriteStayAsTheyWereAndRmRemovesOnlyThatUsersLines() throws Exception {
        Files.createDirectories(keys.getParent());
        Path admin = keygen("admin");
        String foreign = "# the admin's own key\nfrom=\"10.0.0.0/8\" " + Files.readString(admin).strip() + "\n\n";
        Files.writeString(keys, foreign);
        Cli.Result refused = users("add", "alice", "--key", admin.toString(), "--nvidb", "/usr/bin/nvidb");
        assertEquals(4, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("on a line nvidb did not write"), refused.toString());

        assertEquals(0, users("add", "alice", "--key", keygen("alice").toString(), "--nvidb", "/usr/bin/nvidb").exit());
        assertEquals(0, users("add", "bob", "--key", keygen("bob").toString(), "--nvidb", "/usr/bin/nvidb").exit());
        assertEquals(0, users("add", "alice", "--key", keygen("alice2").toString(), "--nvidb", "/usr/bin/nvidb").exit());
        assertEquals(List.of("alice", "bob", "alice"), users("ls", "--json").json().findValuesAsText("user"));

        Cli.Result rm = users("rm", "alice", "--json");
        assertEquals(0, rm.exit(), rm.toString());
        assertEquals(2, rm.json().path("keys").size());
        assertEquals(List.of("bob"), users("ls", "--json").json().findValuesAsText("user"));
        assertTrue(Files.readString(keys).startsWith(foreign), "the admin's lines, comments and blank line are kept");

        Cli.Result gone = users("rm", "alice");
        assertEquals(3, gone.exit(), gone.toString());
    }

    @Test
    void concurrentAddsAllLand() throws Exception {
        List<Path> pubs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            pubs.add(keygen("user" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Cli.Result>> runs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                runs.add(pool.submit(() -> users("add", "user" + n, "--key", pubs.get(n).toString(), "--nvidb", "/usr/bin/nvidb")));
            }
            for (Future<Cli.Result> run : runs) {
                assertEquals(0, run.get().exit(), run.get().toString());
            }
        } finally {
            pool.shutdownNow();
        }
        // And from other processes at once: the file lock, not only the JVM's.
        List<Process> processes = new ArrayList<>();
        for (int i = 8; i < 12; i++) {
            processes.add(cli.start("queue", "users", "add", "user" + i, "--key", keygen("user" + i).toString(),
                    "--nvidb", "/usr/bin/nvidb", "--authorized-keys", keys.toString()));
        }
        for (Process p : processes) {
            Cli.Result r = Cli.finish(p, 120);
            assertEquals(0, r.exit(), r.toString());
        }
        assertEquals(12, users("ls", "--json").json().size());
    }
}
