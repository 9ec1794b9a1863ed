import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Runs bench/populate-jobs.sql against a queue database, for machines without the sqlite3 tool
 * (comments: whole lines starting with {@code --}; statements end with {@code ;}).
 * Started by bench/cli-timings.sh in source-file mode with the image's jars on the class path:
 * {@code java -cp 'IMAGE/lib/*' PopulateJobs.java DB SQL}.
 */
public final class PopulateJobs {
    public static void main(String[] args) throws Exception {
        String sql = Files.readString(Path.of(args[1])).replaceAll("(?m)^\\s*--.*$", "");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + args[0])) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 10000");
                for (String statement : sql.split(";")) {
                    if (!statement.isBlank()) {
                        s.execute(statement);
                    }
                }
            }
            c.commit();
        }
    }
}
