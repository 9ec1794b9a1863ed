package nvidb.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import nvidb.testkit.Pids;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ends what a test's jobs left running under its {@code @TempDir} before JUnit deletes it.
 *
 * <p>Jobs, lane runners and keepers outlive the command that started them by design, and a job
 * that is cancelled as a test's last step writes its exit files while it ends: JUnit's clean-up
 * then fails the test with "Failed to close extension context" (seen in CI on InterruptTest).
 * Registered for every test of this module through {@code META-INF/services} (extension
 * autodetection is on in the build). Only processes started since the test began are touched, so
 * a pid file whose number was reused by something else is left alone.
 */
public final class JobsEndBeforeTempDirCleanup implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(JobsEndBeforeTempDirCleanup.class);
    private static final List<String> PID_FILES = List.of("pid", "runner.pid");

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("began", Instant.now().minusSeconds(1));
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Instant began = context.getStore(NS).get("began", Instant.class);
        Object test = context.getRequiredTestInstance();
        List<ProcessHandle> started = new ArrayList<>();
        for (Path dir : tempDirs(test)) {
            for (Path pidFile : pidFiles(dir)) {
                Pids.inFile(pidFile).flatMap(ProcessHandle::of)
                        .filter(p -> p.info().startInstant().map(s -> !s.isBefore(began)).orElse(false))
                        .ifPresent(started::add);
            }
        }
        Pids.killTreesAndAwait(started);
    }

    private static List<Path> tempDirs(Object test) throws IllegalAccessException {
        List<Path> dirs = new ArrayList<>();
        for (Class<?> c = test.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                // A static folder is shared by the class's tests (a Slurm cluster): it ends with the class.
                if (f.isAnnotationPresent(TempDir.class) && f.getType() == Path.class && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    if (f.get(test) instanceof Path p && Files.isDirectory(p)) {
                        dirs.add(p);
                    }
                }
            }
        }
        return dirs;
    }

    private static List<Path> pidFiles(Path dir) {
        // Job folders sit a few levels down (job_root/ID/pid, spool/LANE/runner.pid, .nvidb/…).
        try (Stream<Path> files = Files.walk(dir, 6)) {
            return files.filter(f -> PID_FILES.contains(f.getFileName().toString()) && Files.isRegularFile(f)).toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of(); // the tree changed under the walk: whatever is left, JUnit reports
        }
    }
}
