package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NvidbPathsTest {
    private static final String HOME = "/home/alice";

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", HOME);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void defaultsUnderTildeDotNvidb() {
        NvidbPaths p = NvidbPaths.resolve(env(), null);
        assertEquals(Path.of("/home/alice/.nvidb"), p.home());
        assertEquals(Path.of("/home/alice/.nvidb/queue.db"), p.database());
        assertEquals(Path.of("/home/alice/.nvidb/config.yml"), p.configFile());
        assertEquals(Path.of("/home/alice/.nvidb/queue.yml"), p.queueFile());
    }

    @Test
    void nvidbHomeMovesEverything() {
        NvidbPaths p = NvidbPaths.resolve(env("NVIDB_HOME", "/srv/nvidb"), null);
        assertEquals(Path.of("/srv/nvidb"), p.home());
        assertEquals(Path.of("/srv/nvidb/queue.db"), p.database());
        assertEquals(Path.of("/srv/nvidb/config.yml"), p.configFile());
        assertEquals(Path.of("/srv/nvidb/queue.yml"), p.queueFile());
    }

    @Test
    void databasePrecedenceDbPathThenEnvThenHome() {
        Map<String, String> env = env("NVIDB_HOME", "/srv/nvidb", "NVIDB_QUEUE_DB", "/data/shared.db");
        assertEquals(Path.of("/tmp/option.db"), NvidbPaths.resolve(env, "/tmp/option.db").database());
        assertEquals(Path.of("/data/shared.db"), NvidbPaths.resolve(env, null).database());
        assertEquals(Path.of("/data/shared.db"), NvidbPaths.resolve(env, "").database(), "an empty option is no option");
        env.remove("NVIDB_QUEUE_DB");
        assertEquals(Path.of("/srv/nvidb/queue.db"), NvidbPaths.resolve(env, null).database());
        env.put("NVIDB_QUEUE_DB", "");
        assertEquals(Path.of("/srv/nvidb/queue.db"), NvidbPaths.resolve(env, null).database(), "empty means unset");
        // The database elsewhere leaves the configuration in NVIDB_HOME.
        assertEquals(Path.of("/srv/nvidb/config.yml"), NvidbPaths.resolve(env, "/tmp/option.db").configFile());
    }

    @Test
    void queueConfigMovesOnItsOwn() {
        NvidbPaths p = NvidbPaths.resolve(env("NVIDB_HOME", "/srv/nvidb", "NVIDB_QUEUE_CONFIG", "/etc/nvidb/queue.yml"), null);
        assertEquals(Path.of("/etc/nvidb/queue.yml"), p.queueFile());
        assertEquals(Path.of("/srv/nvidb/config.yml"), p.configFile(), "config.yml stays in NVIDB_HOME");
        assertEquals(Path.of("/srv/nvidb/queue.db"), p.database());
    }

    @Test
    void tildeIsExpandedEverywhere() {
        NvidbPaths p = NvidbPaths.resolve(env("NVIDB_HOME", "~/nv", "NVIDB_QUEUE_CONFIG", "~/cfg/q.yml"), "~/dbs/q.db");
        assertEquals(Path.of("/home/alice/nv"), p.home());
        assertEquals(Path.of("/home/alice/dbs/q.db"), p.database());
        assertEquals(Path.of("/home/alice/cfg/q.yml"), p.queueFile());
        assertEquals(Path.of("/home/alice/x.db"), NvidbPaths.resolve(env("NVIDB_QUEUE_DB", "~/x.db"), null).database());
        assertEquals("/home/alice", NvidbPaths.expandHome("~", env()));
        assertEquals("~bob/x", NvidbPaths.expandHome("~bob/x", env()), "another user's ~ is left alone");
        assertEquals("/a/~/b", NvidbPaths.expandHome("/a/~/b", env()));
    }

    @Test
    void relativePathsBecomeAbsolute() {
        NvidbPaths p = NvidbPaths.resolve(env("NVIDB_HOME", "rel-home"), "rel.db");
        assertTrue(p.home().isAbsolute());
        assertTrue(p.database().isAbsolute());
        assertEquals(Path.of("rel.db").toAbsolutePath(), p.database());
        assertEquals(Path.of("rel-home", "queue.yml").toAbsolutePath(), p.queueFile());
    }

    @Test
    void withoutHomeInTheEnvironmentTheJvmsHomeIsUsed() {
        NvidbPaths p = NvidbPaths.resolve(Map.of(), null);
        assertEquals(Path.of(System.getProperty("user.home"), ".nvidb").toAbsolutePath(), p.home());
    }
}
