package nvidb.core.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where nvidb keeps its files. The database is {@code --db-path}, else {@code $NVIDB_QUEUE_DB},
 * else {@code $NVIDB_HOME/queue.db}; {@code NVIDB_HOME} defaults to {@code ~/.nvidb}.
 */
public record NvidbPaths(Path home, Path database, Path configFile, Path queueFile) {

    public static NvidbPaths resolve(Map<String, String> env, String dbPathOption) {
        Path home = nonEmpty(env.get("NVIDB_HOME")) != null
                ? Path.of(expandHome(env.get("NVIDB_HOME"), env))
                : Path.of(userHome(env), ".nvidb");
        Path db;
        if (nonEmpty(dbPathOption) != null) {
            db = Path.of(expandHome(dbPathOption, env));
        } else if (nonEmpty(env.get("NVIDB_QUEUE_DB")) != null) {
            db = Path.of(expandHome(env.get("NVIDB_QUEUE_DB"), env));
        } else {
            db = home.resolve("queue.db");
        }
        Path queueFile = nonEmpty(env.get("NVIDB_QUEUE_CONFIG")) != null
                ? Path.of(expandHome(env.get("NVIDB_QUEUE_CONFIG"), env))
                : home.resolve("queue.yml");
        return new NvidbPaths(home.toAbsolutePath(), db.toAbsolutePath(), home.resolve("config.yml").toAbsolutePath(),
                queueFile.toAbsolutePath());
    }

    static String userHome(Map<String, String> env) {
        String h = env.get("HOME");
        return h == null || h.isEmpty() ? System.getProperty("user.home") : h;
    }

    /** Expands a leading {@code ~} the way a shell would for the current user. */
    public static String expandHome(String path, Map<String, String> env) {
        if (path.equals("~")) {
            return userHome(env);
        }
        if (path.startsWith("~/")) {
            return userHome(env) + path.substring(1);
        }
        return path;
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
