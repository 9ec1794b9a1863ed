import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The licence texts of everything the image bundles, gathered at build time (src/package.sh):
 *
 *   java ImageLicenses.java IMAGE MAPPING OUT
 *
 * For each jar of IMAGE/lib (and lib/classpath) that is not nvidb's own: the licence and notice
 * files the jar carries (META-INF/LICENSE*, NOTICE*, ...), and the text MAPPING names for it
 * (licenses.txt: jar name prefix, licence, file). A jar with neither fails the build, so that no
 * library ships without its licence. The Java runtime's own texts (IMAGE/runtime/legal) go to
 * OUT/java-runtime. OUT/README lists every library with its licence.
 */
public final class ImageLicenses {
    private static final Pattern LICENCE_ENTRY = Pattern.compile(
            "(?i)(^|.*/)(LICEN[CS]E|NOTICE|COPYING)[^/]*$");

    private ImageLicenses() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ImageLicenses IMAGE MAPPING OUT");
        }
        Path image = Path.of(args[0]);
        Path mappingFile = Path.of(args[1]);
        Path out = Path.of(args[2]);
        Map<String, String[]> mapping = mapping(mappingFile);
        List<Path> jars = new ArrayList<>();
        for (Path dir : List.of(image.resolve("lib"), image.resolve("lib/classpath"))) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
                }
            }
        }
        Files.createDirectories(out);
        StringBuilder readme = new StringBuilder("Licences of the libraries nvidb bundles, one folder each.\n\n");
        List<String> missing = new ArrayList<>();
        for (Path jar : jars) {
            String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
            if (name.startsWith("nvidb-")) {
                continue;
            }
            Path dir = out.resolve(name);
            Files.createDirectories(dir);
            List<String> found = carried(jar, dir);
            String[] mapped = mapped(mapping, name);
            if (mapped != null) {
                Files.copy(mappingFile.resolveSibling(mapped[1]), dir.resolve("LICENSE-" + mapped[0] + ".txt"),
                        StandardCopyOption.REPLACE_EXISTING);
                found.add("LICENSE-" + mapped[0] + ".txt");
            }
            if (found.isEmpty()) {
                missing.add(jar.getFileName().toString());
            }
            readme.append(String.format("%-36s %s%n", name, mapped != null ? mapped[0] + " (" + String.join(", ", found)
                    + ")" : String.join(", ", found)));
        }
        if (!missing.isEmpty()) {
            System.err.println("ImageLicenses: no licence text for " + String.join(", ", missing)
                    + ": the jar carries none; add a line for it to " + mappingFile);
            System.exit(1);
        }
        Path legal = image.resolve("runtime/legal");
        if (Files.isDirectory(legal)) {
            Path runtime = out.resolve("java-runtime");
            try (Stream<Path> s = Files.walk(legal)) {
                for (Path p : s.filter(Files::isRegularFile).toList()) {
                    Path target = runtime.resolve(legal.relativize(p).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING); // follows links
                }
            }
            readme.append(String.format("%-36s %s%n", "java-runtime", "the Java runtime (OpenJDK), by module"));
        }
        Files.writeString(out.resolve("README"), readme.toString());
    }

    /** Copies the licence files a jar carries into {@code dir}; returns their names there. */
    private static List<String> carried(Path jar, Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : zip.stream().toList()) {
                if (e.isDirectory() || !LICENCE_ENTRY.matcher(e.getName()).matches() || e.getName().endsWith(".class")) {
                    continue;
                }
                String target = e.getName().replace('/', '_').replaceFirst("^META-INF_", "");
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, dir.resolve(target), StandardCopyOption.REPLACE_EXISTING);
                }
                names.add(target);
            }
        }
        return names;
    }

    private static String[] mapped(Map<String, String[]> mapping, String jarName) {
        for (Map.Entry<String, String[]> m : mapping.entrySet()) {
            if (jarName.startsWith(m.getKey())) {
                return m.getValue();
            }
        }
        return null;
    }

    /** licenses.txt: prefix → {licence, file}; # starts a comment. */
    private static Map<String, String[]> mapping(Path file) throws IOException {
        Map<String, String[]> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            if (f.length != 3) {
                throw new IllegalArgumentException(file + ": want PREFIX LICENCE FILE, got: " + line);
            }
            m.put(f[0], new String[] {f[1], f[2]});
        }
        return m;
    }
}
