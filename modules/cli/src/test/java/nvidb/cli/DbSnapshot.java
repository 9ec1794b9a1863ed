package nvidb.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/** Every row of the queue's tables as text, to show that a refused command changed nothing. */
final class DbSnapshot {
    private static final String[] TABLES = {"jobs", "events", "alerts", "nodes", "lanes", "orphans", "meta", "schema_version"};

    private DbSnapshot() {
    }

    static String of(Path db) throws Exception {
        if (!Files.exists(db)) {
            return "(no database)";
        }
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            for (String table : TABLES) {
                sb.append("## ").append(table).append('\n');
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            sb.append(md.getColumnName(i)).append('=').append(rs.getString(i)).append(' ');
                        }
                        sb.append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }
}
