package nvidb.core.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * What the configuration files look like on disk (size and modification time of each, or absent):
 * the daemon compares stamps before each pass and reads the configuration again when it differs,
 * so an edited {@code queue.yml} takes effect without a restart.
 */
record ConfigStamp(List<String> files) {
    static ConfigStamp of(List<Path> paths) {
        List<String> out = new ArrayList<>();
        for (Path p : paths) {
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                out.add(p + " " + a.size() + " " + a.lastModifiedTime().toMillis());
            } catch (IOException e) {
                out.add(p + " absent");
            }
        }
        return new ConfigStamp(List.copyOf(out));
    }
}
