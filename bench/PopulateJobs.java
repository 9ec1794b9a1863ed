import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Runs bench/populate-jobs.sql against a queue database, for machines without the sqlite3 tool
 * (comments: whole lines starting with {@code --}; statements end with {@code ;}); then each
 * further file given (bench/populate-job-lists.sql) when the database has the table job_env.
 * Started by bench/cli-timings.sh in source-file mode with the image's jars on the class path:
 * {@code java -cp 'IMAGE/lib/*' PopulateJobs.java DB SQL}.
 */
public final class PopulateJobs {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + args[0])) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 10000");
                boolean lists;
                try (var rs = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'job_env'")) {
                    lists = rs.next() && rs.getInt(1) > 0;
                }
                for (int i = 1; i < args.length; i++) {
                    if (i == 1 || lists) {
                        run(s, Files.readString(Path.of(args[i])));
                    }
                }
            }
            c.commit();
        }
    }

    private static void run(Statement s, String file) throws Exception {
        for (String statement : file.replaceAll("(?m)^\\s*--.*$", "").split(";")) {
            if (!statement.isBlank()) {
                s.execute(statement);
            }
        }
    }
}
