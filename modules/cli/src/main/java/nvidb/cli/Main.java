package nvidb.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import nvidb.cli.context.CliContext;
import nvidb.cli.context.ShutdownGuard;
import nvidb.cli.forward.ForwardedHost;
import nvidb.cli.forward.SharedAccountLogin;
import nvidb.cli.output.Output;

/** The {@code nvidb} program. The only place that ends the process. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Map<String, String> env = withWorkingDirectory(System.getenv(), Path.of(System.getProperty("user.dir")));
        exit(run(args, env, Output.system(), stdin()));
    }

    /**
     * One command line as this process's whole work: a forwarded one is set up as its client typed
     * it, and Ctrl-C or SIGTERM are handled (ShutdownGuard). The AOT training runs its commands
     * through here too, so that what every start does before the command is in the cache.
     */
    public static int run(String[] args, Map<String, String> env, Output output, InputStream stdin) {
        if (SharedAccountLogin.handles(args)) {
            // The shared account's forced command: what the client asked for, as the key's user.
            SharedAccountLogin.Login login = SharedAccountLogin.accept(args, env, output);
            if (login.exit() != null) {
                return login.exit();
            }
            args = login.args();
            env = login.env();
            if (login.keeperEnsure()) {
                ensureKeeper(env, output);
            }
        }
        ForwardedHost.Session forwarded = ForwardedHost.handles(args) ? ForwardedHost.accept(args, env, output) : null;
        CliContext context = forwarded != null ? forwarded.context() : new CliContext(env, output, stdin, true);
        ShutdownGuard guard = ShutdownGuard.install(context);
        int code;
        if (forwarded == null) {
            code = Nvidb.run(args, context);
        } else {
            forwarded.listen();
            code = forwarded.refusal() != null ? forwarded.refusal() : Nvidb.run(forwarded.args(), context);
            forwarded.close();
        }
        guard.finished();
        return code;
    }

    /**
     * What the keeper prelude of a forwarded command asks, for a shared-account login (which runs
     * no shell): {@code queue keeper ensure} here, quietly; a failure is a warning, never the command's.
     */
    private static void ensureKeeper(Map<String, String> env, Output output) {
        java.io.PrintStream nowhere = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        int code = Nvidb.run(new String[] {"queue", "keeper", "ensure"}, env, new Output(nowhere, nowhere));
        if (code != 0) {
            output.err().println("warning: the queue keeper could not be started (nvidb queue keeper ensure exited "
                    + code + "); this command runs anyway, but nothing schedules jobs between commands");
        }
    }

    /**
     * Ends the process with {@code code}: a success returns from {@code main} when no other thread
     * would keep the JVM alive, sparing System.exit's logger set-up (see LiveThreads).
     */
    public static void exit(int code) {
        if (code != 0 || nvidb.cli.context.LiveThreads.wouldKeepTheJvmAlive()) {
            System.exit(code);
        }
    }

    /**
     * This process's stdin, read through a channel: closing it ends a read that blocks in another
     * thread (a forwarded command passes stdin on), which the JVM would otherwise wait for at exit.
     */
    private static InputStream stdin() {
        return Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
    }

    /**
     * The environment with {@code PWD} naming this process's real working directory: a job
     * submitted without {@code --workdir} runs where its submit was made. A caller that changed
     * directory without a shell (a program's {@code cwd=}) leaves an inherited, stale {@code PWD},
     * which is replaced; a {@code PWD} naming the same directory (a path through a symlink) stays.
     */
    public static Map<String, String> withWorkingDirectory(Map<String, String> env, Path cwd) {
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
