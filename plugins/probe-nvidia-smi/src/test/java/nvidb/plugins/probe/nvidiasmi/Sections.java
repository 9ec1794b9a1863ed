package nvidb.plugins.probe.nvidiasmi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Builds the text the script prints, from fixture files and literal lines. */
final class Sections {

    private Sections() {
    }

    static String fixture(String name) {
        try (InputStream in = Sections.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A whole section: both queries answered with exit 0. */
    static String ok(String gpus, String apps) {
        return section("0", gpus, "0", apps);
    }

    static String section(String gpusRc, String gpus, String appsRc, String apps) {
        return "@@nvidb-gpus rc=" + gpusRc + "\n" + gpus + "@@nvidb-apps rc=" + appsRc + "\n" + apps
                + "@@nvidb-gpus-end\n";
    }
}
