package nvidb.core.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The lines that mean a job ran out of GPU memory: the built-in ones ({@code oom-signatures.txt},
 * one resource file for every framework) and a site's own ({@code queue.oom_signatures}). The
 * node's probe looks for them, as plain text, in the end of a failed job's stderr.
 */
public final class OomSignatures {
    static final String RESOURCE = "oom-signatures.txt";
    /** How much of a failed job's stderr is searched: its end, where a traceback's last lines are. */
    public static final int TAIL_BYTES = 65536;

    private static List<String> builtIn;

    private OomSignatures() {
    }

    /** The built-in signatures, in file order. */
    public static synchronized List<String> builtIn() {
        if (builtIn == null) {
            try (InputStream in = OomSignatures.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(RESOURCE + " is missing from the build");
                }
                List<String> out = new ArrayList<>();
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String s = line.strip();
                    if (!s.isEmpty() && !s.startsWith("#")) {
                        out.add(s);
                    }
                }
                builtIn = List.copyOf(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return builtIn;
    }

    /** The built-in signatures and a site's own, each once; never a blank one (it would match every line). */
    public static List<String> with(List<String> site) {
        Set<String> all = new LinkedHashSet<>(builtIn());
        for (String s : site) {
            if (!s.isBlank()) {
                all.add(s.strip());
            }
        }
        return List.copyOf(all);
    }

    /** The first signature {@code text} holds, or null: the same test the probe makes with grep -F. */
    public static String find(List<String> signatures, String text) {
        if (text == null) {
            return null;
        }
        for (String line : text.split("\n")) {
            for (String s : signatures) {
                if (line.contains(s)) {
                    return line;
                }
            }
        }
        return null;
    }
}
