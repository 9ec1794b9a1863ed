package nvidb.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import nvidb.cli.context.CliContext;
import nvidb.cli.context.ShutdownGuard;
import nvidb.cli.output.Output;

/** The {@code nvidb} program. The only place that ends the process. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        CliContext context = new CliContext(withWorkingDirectory(System.getenv(),
                Path.of(System.getProperty("user.dir"))), Output.system());
        ShutdownGuard guard = ShutdownGuard.install(context);
        int code = Nvidb.run(args, context);
        guard.finished();
        nvidb.cli.context.Exit.end(code);
    }

    /**
     * The environment with {@code PWD} naming this process's real working directory: a job
     * submitted without {@code --workdir} runs where its submit was made. A caller that changed
     * directory without a shell (a program's {@code cwd=}) leaves an inherited, stale {@code PWD},
     * which is replaced; a {@code PWD} naming the same directory (a path through a symlink) stays.
     */
    static Map<String, String> withWorkingDirectory(Map<String, String> env, Path cwd) {
        String pwd = env.get("PWD");
        if (pwd != null && pwd.startsWith("/") && sameDirectory(Path.of(pwd), cwd)) {
            return env;
        }
        Map<String, String> fixed = new HashMap<>(env);
        fixed.put("PWD", cwd.toAbsolutePath().toString());
        return fixed;
    }

    private static boolean sameDirectory(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
