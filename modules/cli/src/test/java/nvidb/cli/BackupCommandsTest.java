package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue backup} and {@code queue restore} through the real command line, on real SQLite
 * files: what a backup holds, that no existing file is ever replaced, rotation, and a restore's
 * checks and round trip. (A backup under concurrent writers: distribution's BackupUnderLoadIT.)
 */
class BackupCommandsTest {
    @TempDir
    Path tmp;
    Cli cli;
    Path backups;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        // No node: these commands are about the queue file, not about running jobs.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        backups = cli.nvidbHome().resolve("backups");
    }

    private long submit(String name) {
        return cli.json("job", "submit", "--gpus", "0", "--no-tick", "--name", name, "--", "true")
                .path("job").path("id").asLong();
    }

    @Test
    void aBackupIsOneCheckedPrivateFileWithEveryJobAndNoLeaseAndIsRecordedInStatus() throws Exception {
        submit("a");
        submit("b");
        JsonNode doc = cli.json("queue", "backup");
        assertTrue(doc.path("ok").asBoolean(), doc.toString());
        JsonNode b = doc.path("backup");
        Path file = Path.of(b.path("path").asText());
        assertEquals(backups, file.getParent());
        assertTrue(file.getFileName().toString().matches("queue-\\d{8}T\\d{6}\\.\\d{6}Z\\.db"), file.toString());
        assertEquals("ok", b.path("quick_check").asText());
        assertEquals(Files.size(file), b.path("bytes").asLong());
        assertEquals(cli.database().toString(), b.path("source").asText());
        assertTrue(b.path("took_ms").asLong() >= 0);
        assertEquals(0, b.path("pruned").size());
        assertTrue(b.path("verified").asBoolean());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(backups)));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            assertEquals("ok", one(s, "PRAGMA integrity_check"));
            assertEquals("delete", one(s, "PRAGMA journal_mode"), "one self-contained file, no -wal needed");
            assertEquals("a,b", one(s, "SELECT group_concat(name, ',') FROM (SELECT name FROM jobs ORDER BY id)"));
            assertEquals("0", one(s, "SELECT count(*) FROM locks WHERE owner IS NOT NULL"));
            assertEquals(b.path("created_at").asText(), one(s, "SELECT value FROM meta WHERE key = 'last_backup_at'"));
        }
        try (Stream<Path> left = Files.list(backups)) {
            assertEquals(List.of(file), left.toList(), "no temporary file left behind");
        }
        assertEquals(b.path("created_at").asText(), cli.json("queue", "status", "--no-tick").path("last_backup_at").asText());

        Cli.Result human = cli.run("queue", "backup");
        assertEquals(0, human.exit(), human.toString());
        assertTrue(human.out().matches("backed up " + cli.database() + " to " + backups + "/queue-\\S+\\.db \\(\\d+ bytes,"
                + " quick_check ok, \\d+ ms\\)\n"), human.out());
        assertTrue(cli.run("queue", "status", "--no-tick").out().lines().findFirst().orElseThrow().contains("  backup "));
    }

    @Test
    void anExistingFileIsNeverReplacedAndAMissingDirectoryIsAClearError() throws Exception {
        Path precious = tmp.resolve("precious.db");
        Files.writeString(precious, "not to be touched");
        FileTime before = Files.getLastModifiedTime(precious);
        Cli.Result r = cli.run("queue", "backup", precious.toString());
        assertEquals(1, r.exit(), r.toString());
        assertEquals("error: could not back up the queue: backup already exists: " + precious + "; nvidb never replaces a"
                + " file: name a new one, or pass a directory for a generated name\n", r.err());
        assertEquals("not to be touched", Files.readString(precious));
        assertEquals(before, Files.getLastModifiedTime(precious));
        try (Stream<Path> left = Files.list(tmp)) {
            assertFalse(left.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }

        String db = DbSnapshot.of(cli.database());
        Cli.Result itself = cli.run("queue", "backup", "--json", cli.database().toString());
        assertEquals(1, itself.exit(), itself.toString());
        assertTrue(itself.json().path("error").asText().contains("is the queue database itself"), itself.toString());
        assertEquals(db, DbSnapshot.of(cli.database()));

        Path nowhere = tmp.resolve("no/such/dir/q.db");
        Cli.Result missing = cli.run("queue", "backup", nowhere.toString());
        assertEquals(1, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("directory " + nowhere.getParent() + " does not exist; create it first"),
                missing.toString());
        assertFalse(Files.exists(tmp.resolve("no")), "nothing was created for an explicit path");

        Path fresh = tmp.resolve("fresh.db");
        assertEquals(fresh.toString(), cli.json("queue", "backup", fresh.toString()).path("backup").path("path").asText());
        Cli.Result again = cli.run("queue", "backup", fresh.toString());
        assertEquals(1, again.exit(), "the second backup to the same name is refused: " + again);
    }

    @Test
    void rotationRemovesOnlyTheOldestGeneratedBackups() throws Exception {
        Files.createDirectories(backups);
        Path oldest = backups.resolve("queue-20200101T000000.000000Z.db");
        Files.writeString(oldest, "an old generated backup");
        List<Path> foreign = List.of(backups.resolve("notes.txt"), backups.resolve("queue-mine.db"),
                backups.resolve("queue-20200101T000000.000000Z.db.bak"));
        for (Path f : foreign) {
            Files.writeString(f, "the user's");
        }
        Path linkTarget = tmp.resolve("elsewhere.db");
        Files.writeString(linkTarget, "linked");
        Files.createSymbolicLink(backups.resolve("queue-20190101T000000.000000Z.db"), linkTarget);
        Path explicit = backups.resolve("before-upgrade.db");
        cli.json("queue", "backup", explicit.toString());

        List<String> written = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            JsonNode b = cli.json("queue", "backup", "--keep", "2").path("backup");
            written.add(b.path("path").asText());
            b.path("pruned").forEach(p -> removed.add(p.asText()));
        }
        assertEquals(List.of(oldest.toString(), written.get(0), written.get(1)), removed);
        Set<Path> left = new TreeSet<>();
        try (Stream<Path> files = Files.list(backups)) {
            files.forEach(left::add);
        }
        Set<Path> expected = new TreeSet<>(foreign);
        expected.addAll(List.of(explicit, backups.resolve("queue-20190101T000000.000000Z.db"),
                Path.of(written.get(2)), Path.of(written.get(3))));
        assertEquals(expected, left, "the newest two generated backups, and everything that is not one");
        assertEquals("linked", Files.readString(linkTarget));

        // queue.backup.keep is the default in the backup directory; a directory named on the command line is
        // rotated only when --keep says so.
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  backup:\n    keep: 1\n");
        assertEquals(List.of(written.get(3), written.get(2)), texts(cli.json("queue", "backup").path("backup").path("pruned")));
        Path own = Files.createDirectories(tmp.resolve("own"));
        cli.json("queue", "backup", own.toString());
        assertEquals(0, cli.json("queue", "backup", own.toString()).path("backup").path("pruned").size());
        assertEquals(2, cli.json("queue", "backup", own.toString(), "--keep", "1").path("backup").path("pruned").size());
        // keep 0 keeps every one, from the command line as from the configuration (as the reference reads it).
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  backup:\n    keep: 0\n");
        assertEquals(0, cli.json("queue", "backup").path("backup").path("pruned").size());
        assertEquals(0, cli.json("queue", "backup", own.toString(), "--keep", "0").path("backup").path("pruned").size());
    }

    @Test
    void badKeepValuesAreUsageErrors() {
        Cli.Result negative = cli.run("queue", "backup", "--keep", "-1");
        assertEquals(64, negative.exit(), negative.toString());
        assertEquals("error: --keep cannot be negative: N keeps the newest N generated backups, the new one included,"
                + " and 0 keeps every one; not -1\n", negative.err());
        assertEquals(64, cli.run("queue", "backup", "--keep", "many").exit());
        Cli.Result file = cli.run("queue", "backup", tmp.resolve("one.db").toString(), "--keep", "3");
        assertEquals(64, file.exit(), file.toString());
        assertTrue(file.err().contains("names one file, which is never rotated"), file.toString());
        assertFalse(Files.exists(tmp.resolve("one.db")));
        assertFalse(Files.exists(backups), "a refused command writes nothing");
    }

    @Test
    void aRestorePutsTheSnapshotBackKeepsWhatItReplacedAndNeverReusesAnId() throws Exception {
        long a = submit("a");
        submit("b");
        Path snapshot = Path.of(cli.json("queue", "backup").path("backup").path("path").asText());
        long c = submit("c");
        cli.json("job", "cancel", String.valueOf(a));
        holdLease("keeper", "elsewhere:7:keeper"); // a lease of a process running now, not of the snapshot

        JsonNode r = cli.json("queue", "restore", snapshot.toString());
        assertEquals(snapshot.toString(), r.path("restored_from").asText());
        assertEquals(cli.database().toString(), r.path("database").asText());
        assertEquals(schemaVersion(snapshot), r.path("schema_version").asInt());
        Path previous = Path.of(r.path("previous").path("path").asText());
        assertEquals(backups, previous.getParent());
        assertEquals("ok", r.path("previous").path("quick_check").asText());
        assertTrue(r.path("previous").path("verified").asBoolean(), "the same BackupInfo as queue backup: " + r);

        JsonNode jobs = cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs");
        assertEquals(List.of("b", "a"), names(jobs));
        assertEquals("pending", jobs.get(1).path("state").asText(), "job a as the snapshot had it: not cancelled");
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + previous); Statement s = db.createStatement()) {
            assertEquals("a,b,c", one(s, "SELECT group_concat(name, ',') FROM (SELECT name FROM jobs ORDER BY id)"));
            assertEquals("cancelled", one(s, "SELECT state FROM jobs WHERE name = 'a'"));
        }
        assertTrue(submit("d") > c, "an id handed out before the restore is not handed out again");
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = db.createStatement()) {
            assertEquals("elsewhere:7:keeper", one(s, "SELECT owner FROM locks WHERE name = 'keeper'"));
            assertEquals(null, one(s, "SELECT owner FROM locks WHERE name = 'scheduler'"), "the restore's own lease is given back");
        }
        assertEquals(r.path("previous").path("created_at").asText(),
                cli.json("queue", "status", "--no-tick").path("last_backup_at").asText());

        Cli.Result human = cli.run("queue", "restore", previous.toString());
        assertEquals(0, human.exit(), human.toString());
        assertTrue(human.out().startsWith("restored " + cli.database() + " from " + previous
                + "; what it held before is kept in " + backups + "/queue-"), human.out());
        assertEquals(List.of("c", "b", "a"), names(cli.json("job", "ls", "--no-tick", "-n", "0").path("jobs")));
    }

    @Test
    void aRestoreRefusesWhatIsNotASoundQueueAndChangesNothing() throws Exception {
        submit("a");
        Path good = Path.of(cli.json("queue", "backup").path("backup").path("path").asText());
        String db = DbSnapshot.of(cli.database());

        Path text = tmp.resolve("notes.db");
        Files.writeString(text, "these are notes, not a database\n".repeat(200));
        assertRefused(cli.run("queue", "restore", text.toString()), "is not a readable SQLite database");

        Path torn = tmp.resolve("torn.db");
        byte[] bytes = Files.readAllBytes(good);
        for (int i = 4096 + 8; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Files.write(torn, bytes);
        assertRefused(cli.run("queue", "restore", torn.toString()), "torn.db");

        Path newer = tmp.resolve("newer.db");
        Files.copy(good, newer);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + newer); Statement s = c.createStatement()) {
            s.execute("INSERT INTO schema_version (version, applied_at) VALUES (99, '2030-01-01T00:00:00+00:00')");
        }
        assertRefused(cli.run("queue", "restore", newer.toString()), "has schema version 99, written by a newer nvidb;"
                + " this nvidb knows versions up to " + schemaVersion(good));

        Path other = tmp.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (x)");
        }
        assertRefused(cli.run("queue", "restore", other.toString()), "not an nvidb queue");
        assertRefused(cli.run("queue", "restore", tmp.resolve("missing.db").toString()), "does not exist");

        assertEquals(db, DbSnapshot.of(cli.database()), "every refusal left the queue as it was");
        try (Stream<Path> files = Files.list(backups)) {
            assertEquals(List.of(good), files.toList(), "and took no backup of it");
        }
        try (Stream<Path> files = Files.list(cli.nvidbHome())) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().contains(".tmp")), "no temporary file left");
        }
    }

    @Test
    void aRestoreRefusesWhileALiveProcessHoldsTheSchedulerLease() throws Exception {
        submit("a");
        Path good = Path.of(cli.json("queue", "backup").path("backup").path("path").asText());
        Process holder = new ProcessBuilder("sleep", "60").start();
        try {
            holdLease("scheduler", host() + ":" + holder.pid() + ":daemon");
            String db = DbSnapshot.of(cli.database());
            Cli.Result r = cli.run("queue", "restore", "--json", good.toString());
            assertEquals(4, r.exit(), r.toString());
            assertEquals("conflict", r.json().path("code").asText());
            assertTrue(r.json().path("error").asText().startsWith("could not restore the queue: the scheduler lease is"
                    + " held by process " + holder.pid() + " on " + host() + " (a pass in progress) until "), r.toString());
            assertEquals(db, DbSnapshot.of(cli.database()));
        } finally {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        // The holder is gone: its lease no longer stands in the way.
        assertEquals(0, cli.run("queue", "restore", good.toString()).exit());
    }

    /** This machine's name as nvidb reads it for a lease owner (HOSTNAME, else the kernel's). */
    private static String host() throws Exception {
        String h = System.getenv("HOSTNAME");
        return h != null && !h.isBlank() ? h : Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }

    private void holdLease(String name, String owner) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + cli.database()); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout=10000");
            s.execute("INSERT INTO locks (name, owner, acquired_at, expires_at) VALUES ('" + name + "', '" + owner
                    + "', '2026-01-01T00:00:00+00:00', '2999-01-01T00:00:00+00:00') ON CONFLICT(name) DO UPDATE SET"
                    + " owner = excluded.owner, expires_at = excluded.expires_at");
        }
    }

    private static void assertRefused(Cli.Result r, String part) {
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().startsWith("error: could not restore the queue: "), r.toString());
        assertTrue(r.err().contains(part), "expected '" + part + "' in " + r);
    }

    /** The schema version a file this nvidb wrote carries: the newest it knows. */
    private static int schemaVersion(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            return Integer.parseInt(one(s, "SELECT MAX(version) FROM schema_version"));
        }
    }

    private static String one(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static List<String> names(JsonNode jobs) {
        List<String> out = new ArrayList<>();
        jobs.forEach(j -> out.add(j.path("name").asText()));
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(j -> out.add(j.asText()));
        return out;
    }
}
