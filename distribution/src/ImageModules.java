import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Build-time helper of build-image.sh (run in source-file mode: {@code java ImageModules.java
 * LIB MAIN_MODULE}). Reads the module descriptors of the jars in LIB and prints, one per line:
 *
 * <pre>
 *   module NAME FILE     an explicit module that stays on the module path
 *   automatic NAME FILE  an automatic module that stays on the module path
 *   classpath FILE       a jar that must run on the class path instead (see below)
 *   jdk NAME             a JDK module that an explicit module requires (not {@code static})
 *   error TEXT           the jars cannot be arranged; the build fails with TEXT
 * </pre>
 *
 * Why a class path at all: two automatic modules that share a package (Apache MINA sshd's
 * sshd-core and sshd-common both hold {@code org.apache.sshd.client.auth.password}, for one) make
 * the whole boot layer fail to resolve. Such automatic modules go to the class path, and with
 * them every explicit module that requires one of them (directly or through others) — a named
 * module cannot read the class path. The main module and what it requires must stay modules.
 */
public final class ImageModules {
    public static void main(String[] args) {
        Path lib = Path.of(args[0]);
        String main = args[1];
        Map<String, ModuleReference> byName = new TreeMap<>();
        for (ModuleReference ref : ModuleFinder.of(lib).findAll()) {
            byName.put(ref.descriptor().name(), ref);
        }
        // Package -> modules holding it.
        Map<String, Set<String>> owners = new TreeMap<>();
        byName.forEach((name, ref) -> ref.descriptor().packages()
                .forEach(p -> owners.computeIfAbsent(p, k -> new TreeSet<>()).add(name)));

        Set<String> toClassPath = new TreeSet<>();
        for (Map.Entry<String, Set<String>> e : owners.entrySet()) {
            if (e.getValue().size() < 2) {
                continue;
            }
            for (String m : e.getValue()) {
                if (byName.get(m).descriptor().isAutomatic()) {
                    toClassPath.add(m);
                } else {
                    System.out.println("error package " + e.getKey() + " is in several modules: " + e.getValue()
                            + "; " + m + " is an explicit module and cannot be moved to the class path");
                }
            }
        }
        // Explicit modules requiring a class-path module follow it, transitively.
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ModuleReference ref : byName.values()) {
                ModuleDescriptor d = ref.descriptor();
                if (toClassPath.contains(d.name())) {
                    continue;
                }
                for (ModuleDescriptor.Requires r : d.requires()) {
                    if (toClassPath.contains(r.name()) && !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
                        toClassPath.add(d.name());
                        changed = true;
                        break;
                    }
                }
            }
        }
        // The main module's own closure must stay on the module path.
        Deque<String> todo = new ArrayDeque<>(List.of(main));
        Set<String> closure = new TreeSet<>();
        while (!todo.isEmpty()) {
            String m = todo.pop();
            if (!closure.add(m) || !byName.containsKey(m)) {
                continue;
            }
            byName.get(m).descriptor().requires().stream()
                    .filter(r -> !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
                    .forEach(r -> todo.push(r.name()));
        }
        if (!byName.containsKey(main)) {
            System.out.println("error main module " + main + " is not in " + lib);
        }
        for (String m : closure) {
            if (toClassPath.contains(m)) {
                System.out.println("error " + m + " (needed by " + main + ") shares a package with another jar"
                        + " and cannot stay on the module path");
            }
        }

        Set<String> jdk = new TreeSet<>();
        byName.values().stream().sorted(Comparator.comparing(r -> r.descriptor().name())).forEach(ref -> {
            ModuleDescriptor d = ref.descriptor();
            if (toClassPath.contains(d.name())) {
                System.out.println("classpath " + Path.of(ref.location().orElseThrow()).getFileName());
                return;
            }
            System.out.println((d.isAutomatic() ? "automatic " : "module ") + d.name()
                    + " " + Path.of(ref.location().orElseThrow()).getFileName());
            for (ModuleDescriptor.Requires r : d.requires()) {
                boolean isStatic = r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC);
                if (!isStatic && !byName.containsKey(r.name()) && ModuleFinder.ofSystem().find(r.name()).isPresent()) {
                    jdk.add(r.name());
                }
            }
        });
        jdk.forEach(m -> System.out.println("jdk " + m));
    }
}
