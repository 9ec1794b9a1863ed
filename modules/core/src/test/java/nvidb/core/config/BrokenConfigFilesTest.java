package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue.yml (or config.yml) that is not a YAML file at all: a directory, empty, binary, or
 * 10 MB. Each is a usage error naming the file and what is wrong with it, except an empty file,
 * which is an empty configuration.
 */
class BrokenConfigFilesTest {
    @TempDir
    Path home;

    private NvidbException refused() {
        NvidbException e = assertThrows(NvidbException.class, () -> ConfigLoaderTest.LOADER.load(ConfigLoaderTest.paths(home)));
        assertEquals(ErrorCode.USAGE, e.code(), e.getMessage());
        return e;
    }

    @Test
    void aDirectoryIsRefusedNotTakenForNoConfiguration() throws IOException {
        Files.createDirectory(home.resolve("queue.yml"));
        NvidbException e = refused();
        assertTrue(e.getMessage().contains(home.resolve("queue.yml") + " is a directory"), e.getMessage());
    }

    @Test
    void anEmptyFileIsTheEmbeddedDefault() throws IOException {
        Files.writeString(home.resolve("queue.yml"), "");
        Files.writeString(home.resolve("config.yml"), "\n# nothing here\n");
        QueueConfig c = ConfigLoaderTest.LOADER.load(ConfigLoaderTest.paths(home));
        assertEquals(QueueSettings.defaults().withIncludeLocal(true), c.settings());
    }

    @Test
    void binaryIsRefusedAsNotText() throws IOException {
        byte[] bytes = new byte[4096];
        new Random(24_301L).nextBytes(bytes);
        Files.write(home.resolve("queue.yml"), bytes);
        NvidbException e = refused();
        assertTrue(e.getMessage().contains(home.resolve("queue.yml").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not UTF-8 text"), e.getMessage());
    }

    @Test
    void controlCharactersAreRefusedAsBrokenYaml() throws IOException {
        Files.writeString(home.resolve("queue.yml"), "queue:\n  lock_ttl: 3\u0001\u0002\n");
        NvidbException e = refused();
        assertTrue(e.getMessage().contains(home.resolve("queue.yml") + " is not valid YAML"), e.getMessage());
    }

    @Test
    void tenMegabytesAreRefusedNamingTheLimit() throws IOException {
        StringBuilder sb = new StringBuilder("queue:\n  lock_ttl: 200\n");
        String comment = "# " + "x".repeat(98) + "\n";
        while (sb.length() < 10 * 1024 * 1024) {
            sb.append(comment);
        }
        Files.writeString(home.resolve("config.yml"), sb);
        long start = System.nanoTime();
        NvidbException e = refused();
        assertTrue(e.getMessage().contains(home.resolve("config.yml").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("larger than"), e.getMessage());
        assertTrue(System.nanoTime() - start < 2_000_000_000L, "refused without reading it all");
    }
}
