package nvidb.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The migration index (what a jlink image, which cannot list a folder of resources, uses to find
 * the migrations) names exactly the files of the migrations folder, in version order.
 */
class MigrationsIndexTest {
    private static final Path FOLDER = Path.of("src/main/resources/nvidb/core/store/migrations");

    @Test
    void theIndexNamesEveryMigrationFileOfTheFolderInVersionOrder() throws IOException {
        List<String> files;
        try (Stream<Path> listing = Files.list(FOLDER)) {
            files = listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")).sorted().toList();
        }
        assertEquals(files, Migrations.names(), "every V###__name.sql of " + FOLDER + " in " + Migrations.INDEX
                + ", oldest first, and nothing else");
        for (int v = 1; v <= Migrations.latest(); v++) {
            assertTrue(Migrations.names().get(v - 1).startsWith(String.format("V%03d__", v)),
                    "entry " + v + " is version " + v + ": " + Migrations.names().get(v - 1));
            assertTrue(StoreFixtures.hasStatements(Migrations.sql(v)), "migration " + v + " has statements");
        }
    }

    @Test
    void databasesStampedBeforeTheNamesKeepTheirNumbers() throws IOException {
        // Versions 1-3 were 1.sql, 2.sql, 3.sql; schema_version still records the number alone.
        assertEquals("V001__initial_schema.sql", Migrations.names().get(0));
        assertEquals("V002__alert_delivery_skips.sql", Migrations.names().get(1));
        assertEquals("V003__query_indexes_and_job_tags.sql", Migrations.names().get(2));
    }
}
