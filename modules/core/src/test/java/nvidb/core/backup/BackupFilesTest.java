package nvidb.core.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated names, publishing without replacing, and which files rotation may remove, on a real directory. */
class BackupFilesTest {
    private static final Instant AT = Instant.parse("2026-12-02T10:08:13.686774123Z");

    @TempDir
    Path dir;

    @Test
    void generatedNamesCarryTheUtcMicrosecondAndACollisionSuffix() {
        assertEquals("queue-20261202T100813.686774Z.db", BackupFiles.generatedName(AT, 0));
        assertEquals("queue-20261202T100813.686774Z-2.db", BackupFiles.generatedName(AT, 2));
        assertTrue(BackupFiles.isGenerated(Path.of("queue-20261202T100813.686774Z-2.db")));
        for (String other : List.of("queue.db", "queue-mine.db", "queue-20261202T100813Z.db",
                "queue-20261202T100813.686774Z.db.bak", "queue-20261202T100813.686774Z-0.db", "x-queue-20261202T100813.686774Z.db")) {
            assertFalse(BackupFiles.isGenerated(Path.of(other)), other);
        }
    }

    @Test
    void publishingNeverReplacesAFileAndACollisionTakesTheNextSuffix() throws Exception {
        Path taken = dir.resolve(BackupFiles.generatedName(AT, 0));
        Files.writeString(taken, "first");
        Path temp = BackupFiles.newTemp(dir, "backup");
        Files.writeString(temp, "second");
        assertThrows(FileAlreadyExistsException.class, () -> BackupFiles.publish(temp, taken));
        assertEquals("first", Files.readString(taken));
        assertTrue(Files.exists(temp), "a refused publish leaves the temporary file to its caller");

        Path published = BackupFiles.publishGenerated(temp, dir, AT);
        assertEquals(dir.resolve("queue-20261202T100813.686774Z-1.db"), published);
        assertEquals("second", Files.readString(published));
        assertFalse(Files.exists(temp));
        assertEquals("first", Files.readString(taken));
    }

    @Test
    void rotationOrdersByTheMomentInTheNameAndKeepsTheFreshOne() throws Exception {
        Path a = touch("queue-20260101T000000.000000Z.db");
        Path b = touch("queue-20260101T000000.000000Z-1.db");
        Path c = touch("queue-20260102T000000.000000Z.db");
        Path fresh = touch("queue-20250101T000000.000000Z.db"); // a clock set back: still kept, being new
        touch("queue-mine.db");
        // mtimes say the opposite of the names: the names decide.
        Files.setLastModifiedTime(a, java.nio.file.attribute.FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));

        assertEquals(List.of(b, a), BackupFiles.rotate(dir, 2, fresh));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("queue-20250101T000000.000000Z.db", "queue-20260102T000000.000000Z.db", "queue-mine.db"),
                    left.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(List.of(c), BackupFiles.rotate(dir, 1, fresh));
    }

    private Path touch(String name) throws Exception {
        return Files.writeString(dir.resolve(name), name);
    }
}
