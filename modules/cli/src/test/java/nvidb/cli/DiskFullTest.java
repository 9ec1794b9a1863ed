package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Full disks, on small tmpfs filesystems this test mounts (it needs root; elsewhere it is
 * skipped, saying so). The database's filesystem full during submits, passes and a backup: each
 * fails with exit 1 naming the path and the free space, nothing is half-written, integrity_check
 * stays ok, and everything works once space is freed. A node's job_root full: the launch fails
 * for that job naming the node, the job stays pending (launch failures are retried by the next
 * pass), the node stays up, and the job runs once there is room.
 */
class DiskFullTest {
    @TempDir
    Path tmp;
    private final List<Path> mounts = new ArrayList<>();

    @AfterEach
    void unmount() throws Exception {
        for (Path m : mounts) {
            new ProcessBuilder("umount", "-l", m.toString()).inheritIO().start().waitFor();
        }
    }

    /** A tmpfs of {@code size} at a new directory {@code name}; skips the test where none can be mounted. */
    private Path tmpfs(String name, String size) throws Exception {
        Path at = Files.createDirectories(tmp.resolve(name));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", at.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor() == 0, "skipped: cannot mount a tmpfs here (needs root with mount rights): " + out.strip());
        mounts.add(at);
        return at;
    }

    /** Fills the filesystem of {@code dir} to the last byte; returns the filler, to delete. */
    private static Path fill(Path dir) throws IOException {
        Path filler = dir.resolve("filler");
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            // what was written stays
        }
        byte[] small = new byte[512];
        for (int i = 0; i < 100; i++) { // the last pages' worth, in small pieces
            try (OutputStream out = Files.newOutputStream(dir.resolve("filler-" + i))) {
                out.write(small);
            } catch (IOException full) {
                break;
            }
        }
        return filler;
    }

    private static void free(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(p -> p.getFileName().toString().startsWith("filler")).toList()) {
                Files.delete(p);
            }
        }
    }

    private static String integrity(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            return rs.getString(1);
        }
    }

    private static void says(Cli.Result r, String... parts) {
        assertEquals(1, r.exit(), r.toString());
        for (String part : parts) {
            assertTrue(r.err().contains(part), () -> "missing '" + part + "':\n" + r);
        }
        assertFalse(r.err().contains("\tat ") || r.err().contains("NVIDB_DEBUG"), r.toString());
    }

    @Test
    void aFullDatabaseFilesystemFailsEachCommandClearlyAndRecovers() throws Exception {
        Path fs = tmpfs("dbfs", "4m");
        Cli cli = new Cli(fs);
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n");
        for (int i = 0; i < 3; i++) {
            cli.json("job", "submit", "--gpus", "0", "--", "true");
        }
        cli.json("queue", "backup");
        Path db = cli.database();
        Path backups = cli.nvidbHome().resolve("backups");
        String before = DbSnapshot.of(db);
        long backupsBefore;
        try (Stream<Path> b = Files.list(backups)) {
            backupsBefore = b.count();
        }

        fill(fs);
        says(cli.run("job", "submit", "--gpus", "0", "--no-tick", "--", "true"), "no space left for queue database " + db,
                "MiB free on its filesystem", "nothing of this command was written");
        says(cli.run("job", "submit", "--gpus", "0", "--", "sh", "-c", "x".repeat(3000)), "no space left for queue database " + db);
        says(cli.run("queue", "tick"), "no space left for queue database " + db);
        says(cli.run("job", "cancel", "1"), "no space left for queue database " + db);
        says(cli.run("queue", "backup"), "no space left for queue database " + db, "MiB free");
        try (Stream<Path> b = Files.list(backups)) {
            assertEquals(backupsBefore, b.count(), "no partial backup is left");
        }
        // A read needs room for SQLite's shared-memory index when no other process has it open.
        Cli.Result ls = cli.run("job", "ls");
        if (ls.exit() != 0) {
            says(ls, "no space left for queue database " + db);
        }

        free(fs); // (this test's own look at the database needs that room as well)
        assertEquals(before, DbSnapshot.of(db), "nothing was half-written");
        assertEquals("ok", integrity(db));
        JsonNode after = cli.json("job", "submit", "--gpus", "0", "--", "true");
        assertEquals(4, after.path("job").path("id").asLong());
        cli.json("job", "cancel", "1");
        cli.json("queue", "backup");
        assertEquals("ok", integrity(db));
    }

    @Test
    void aFullBackupFilesystemPublishesNothingAndTheQueueGoesOn() throws Exception {
        Path backups = tmpfs("bkfs", "1m");
        Cli cli = new Cli(tmp.resolve("home"));
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: false\n  backup:\n    directory: " + backups + "\n");
        for (int i = 0; i < 20; i++) {
            cli.json("job", "submit", "--gpus", "0", "--no-tick", "--note", "n".repeat(4000), "--", "true");
        }
        fill(backups);
        says(cli.run("queue", "backup"), "could not copy", backups.toString(), "no space left", "MiB free");
        try (Stream<Path> left = Files.list(backups)) {
            assertEquals(List.of(), left.filter(p -> !p.getFileName().toString().startsWith("filler")).toList(),
                    "no partial backup is left");
        }
        cli.json("job", "submit", "--gpus", "0", "--", "true"); // the queue itself goes on
        free(backups);
        JsonNode b = cli.json("queue", "backup").path("backup");
        assertEquals("ok", b.path("quick_check").asText());
        assertEquals("ok", integrity(Path.of(b.path("path").asText())));
    }

    @Test
    void aFullJobRootFailsTheLaunchNotTheNode() throws Exception {
        Path roots = tmpfs("jobroot", "1m");
        Cli cli = new Cli(tmp.resolve("home"));
        cli.write(".nvidb/queue.yml", "queue:\n  include_local: true\n  job_root: " + roots + "\n");
        fill(roots);
        Cli.Result submitted = cli.run("job", "submit", "--json", "--gpus", "0", "--", "echo", "ran");
        assertEquals(0, submitted.exit(), submitted.toString());
        JsonNode job = submitted.json().path("job");
        long id = job.path("id").asLong();
        JsonNode shown = cli.json("job", "show", Long.toString(id), "--no-tick");
        assertEquals("pending", shown.path("state").asText(), shown.toString());
        String error = shown.path("last_error").asText();
        assertTrue(error.contains("launch failed: local:"), error);
        JsonNode nodes = cli.json("queue", "nodes", "--no-tick").path("nodes");
        assertEquals("up", nodes.get(0).path("state").asText(), nodes.toString());

        free(roots);
        cli.json("queue", "tick");
        for (int i = 0; i < 100 && !cli.json("job", "show", Long.toString(id)).path("state").asText().equals("completed"); i++) {
            Thread.sleep(100);
            cli.json("queue", "tick");
        }
        assertEquals("completed", cli.json("job", "show", Long.toString(id)).path("state").asText());
    }
}
