package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import nvidb.testkit.HostTools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue's files broken under it: a database this user may not write (read commands work,
 * writes say why), a database with damaged pages or a damaged header (a clear error naming
 * {@code queue restore} and the newest backup, and following it works), a WAL cut short (SQLite
 * drops the torn tail; everything before it is there and intact), and a queue.yml that is a
 * directory or binary. Never a stack trace.
 */
class BrokenFilesTest {
    @TempDir
    Path tmp;
    Cli cli;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        for (int i = 0; i < 3; i++) {
            cli.json("job", "submit", "--gpus", "0", "--name", "j" + i, "--", "true");
        }
    }

    private static void noStackTrace(Cli.Result r) {
        assertFalse(r.err().contains("\tat ") || r.err().contains("NVIDB_DEBUG") || r.out().contains("\tat "), r.toString());
    }

    // ---------------------------------------------------------------- read-only

    /** uid 0 writes any file: as root, the command runs without the capabilities that allow it. */
    private Cli.Result runWithoutOverride(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), HostTools.missing("/usr/bin/setpriv",
                    "util-linux") + ": it drops root's CAP_DAC_OVERRIDE for the read-only database test");
            command.addAll(List.of("/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"));
        }
        command.addAll(cli.javaCommand());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(cli.environment());
        return Cli.finish(pb.start(), 60);
    }

    @Test
    void aReadOnlyDatabaseServesReadsAndRefusesWritesSayingWhy() throws Exception {
        Path db = cli.database();
        String before = DbSnapshot.of(db);
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
        try {
            Cli.Result ls = runWithoutOverride("job", "ls", "--json");
            assertEquals(0, ls.exit(), ls.toString());
            assertEquals(3, ls.json().path("jobs").size(), ls.toString());
            Cli.Result status = runWithoutOverride("queue", "status", "--json");
            assertEquals(0, status.exit(), status.toString());
            for (String[] write : List.of(new String[] {"job", "submit", "--gpus", "0", "--", "true"},
                    new String[] {"job", "cancel", "1"}, new String[] {"job", "priority", "2", "+1"}, new String[] {"queue", "tick"})) {
                Cli.Result r = runWithoutOverride(write);
                assertEquals(1, r.exit(), r.toString());
                assertTrue(r.err().contains("queue database " + db + " is read-only for this user"), r.toString());
                noStackTrace(r);
            }
            assertEquals(before, DbSnapshot.of(db), "nothing was written");
        } finally {
            Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-------"));
        }
        cli.json("job", "submit", "--gpus", "0", "--", "true"); // and with write access back, writes work
    }

    // ---------------------------------------------------------------- damaged database

    @Test
    void damagedPagesNameTheNewestBackupAndRestoringItWorks() throws Exception {
        cli.json("queue", "backup");
        Thread.sleep(5);
        Path newest = Path.of(cli.json("queue", "backup").path("backup").path("path").asText());
        Path db = cli.database();
        long pageSize;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA page_size")) {
            pageSize = rs.getLong(1);
        }
        // Every page after the first (the schema) overwritten: the tables' b-trees are garbage.
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            byte[] junk = new byte[(int) (f.length() - pageSize)];
            new Random(24_601L).nextBytes(junk);
            f.seek(pageSize);
            f.write(junk);
        }
        for (String[] command : List.of(new String[] {"job", "ls"}, new String[] {"job", "show", "1"},
                new String[] {"job", "submit", "--gpus", "0", "--", "true"}, new String[] {"queue", "status"})) {
            Cli.Result r = cli.run(command);
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().contains("queue database " + db + " is damaged"), r.toString());
            assertTrue(r.err().contains("the newest backup is " + newest), r.toString());
            assertTrue(r.err().contains("nvidb queue restore " + newest), r.toString());
            noStackTrace(r);
        }
        // What the error says to do works.
        Path aside = Files.createDirectories(tmp.resolve("aside"));
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path p = Path.of(db + suffix);
            if (Files.exists(p)) {
                Files.move(p, aside.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        cli.json("queue", "restore", newest.toString());
        assertEquals(3, cli.json("job", "ls").path("jobs").size());
    }

    @Test
    void aDamagedHeaderWithNoBackupSaysSo() throws Exception {
        Path db = cli.database();
        try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
            f.write(new byte[100]); // the "SQLite format 3" header and its page size gone
        }
        Cli.Result r = cli.run("job", "ls", "--json");
        assertEquals(1, r.exit(), r.toString());
        JsonNode doc = r.json();
        assertEquals("failed", doc.path("code").asText(), r.toString());
        assertTrue(doc.path("error").asText().contains("queue database " + db + " is damaged"), r.toString());
        assertTrue(doc.path("error").asText().contains("there is no backup in " + cli.nvidbHome().resolve("backups")), r.toString());
        noStackTrace(r);
    }

    // ---------------------------------------------------------------- WAL cut short

    @Test
    void aWalCutShortLosesOnlyItsTornTail() throws Exception {
        Path db = cli.database();
        Path copy = Files.createDirectories(tmp.resolve("copy"));
        // A reader holds the database open, so the submits below stay in the WAL (no checkpoint on close).
        try (Connection held = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = held.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint=0");
            s.executeQuery("SELECT count(*) FROM jobs").close();
            for (int i = 0; i < 10; i++) {
                cli.json("job", "submit", "--no-tick", "--gpus", "0", "--name", "w" + i, "--", "true");
            }
            // The files as a disk that lost writes would leave them: the WAL's second half gone, cut mid-frame.
            Files.copy(db, copy.resolve("queue.db"));
            Path wal = Path.of(db + "-wal");
            byte[] bytes = Files.readAllBytes(wal);
            assertTrue(bytes.length > 10_000, "the submits are in the WAL: " + bytes.length);
            Files.write(copy.resolve("queue.db-wal"), java.util.Arrays.copyOf(bytes, bytes.length / 2 + 100));
        }
        Cli.Result r = cli.run("--db-path", copy.resolve("queue.db").toString(), "job", "ls", "--json", "-n", "0");
        assertEquals(0, r.exit(), r.toString());
        List<Long> ids = new ArrayList<>();
        r.json().path("jobs").forEach(j -> ids.add(j.path("id").asLong()));
        ids.sort(null);
        // A prefix of the 13 submits: the three checkpointed ones, then whole transactions up to the cut.
        assertTrue(ids.size() >= 3 && ids.size() < 13, ids.toString());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i + 1, ids.get(i), ids.toString());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy.resolve("queue.db"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            assertEquals("ok", rs.getString(1));
        }
        // And it takes new work where it left off.
        cli.json("--db-path", copy.resolve("queue.db").toString(), "job", "submit", "--gpus", "0", "--", "true");
    }

    // ---------------------------------------------------------------- queue.yml

    @Test
    void aQueueYmlThatIsADirectoryOrBinaryIsAUsageErrorNamingIt() throws Exception {
        Path yml = cli.nvidbHome().resolve("queue.yml");
        Files.delete(yml);
        Files.createDirectory(yml);
        Cli.Result dir = cli.run("job", "ls");
        assertEquals(64, dir.exit(), dir.toString());
        assertTrue(dir.err().contains(yml + " is a directory"), dir.toString());
        Files.delete(yml);
        byte[] binary = new byte[2048];
        new Random(24_602L).nextBytes(binary);
        Files.write(yml, binary);
        Cli.Result bin = cli.run("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(64, bin.exit(), bin.toString());
        assertTrue(bin.err().contains(yml + " is not UTF-8 text"), bin.toString());
        noStackTrace(bin);
    }
}
