package nvidb.cli.forward;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import nvidb.cli.commands.QueueCommand;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;

/**
 * Runs one {@code job} or {@code queue} command line on the queue host ({@code remote:}) instead
 * of here: one ssh session, the host's stdout and stderr passed on as they come, its exit code
 * returned. This process opens no queue and creates nothing. What ssh itself cannot report as the
 * command's own outcome (host unreachable, login refused, no usable nvidb there, the connection
 * broken) ends with exit 69 and a message naming the host and what to fix.
 */
public final class ForwardClient {
    /** Words that keep a command here: {@code --local}, and help and version, which need no queue. */
    private static final Set<String> STAYS_HERE = Set.of("--local", "-h", "--help", "-V", "--version");
    /** Options naming a file on this machine: its bytes travel with the command (the host cannot read it). */
    private static final List<String> FILE_OPTIONS = List.of("--script", "--params-file");
    /** Env that travels with a command (decisions.md §11), besides PWD and NVIDB_SUBMITTER. */
    private static final List<String> CARRIED_ENV = List.of("NO_COLOR", "COLUMNS");

    private final RemoteSettings remote;
    private final String[] args;
    private final List<String> words;
    private final CliContext context;
    private final SshCommand ssh;
    private final AtomicInteger signals = new AtomicInteger();
    private volatile Process process;
    private volatile AnswerStreams answers;
    private volatile RequestStream requests;
    private volatile String abandonedOn;
    private boolean onTerminal;

    /**
     * @param words the command words of {@code args} ({@code job submit}), options left out
     */
    public ForwardClient(RemoteSettings remote, String[] args, List<String> words, CliContext context) {
        this.remote = remote;
        this.args = args.clone();
        this.words = List.copyOf(words);
        this.context = context;
        this.ssh = SshCommand.forCommand(remote, words);
    }

    /** The shared connection's options; none without {@code setsid} (see ConnectionSharing). */
    private List<String> sharing() {
        return onPath("setsid") ? ConnectionSharing.options(remote, context.home()) : List.of();
    }

    /** Whether a command line belongs to the queue, where there is a queue host: job and queue commands. */
    public static boolean wanted(String[] args, List<String> words) {
        if (words.isEmpty() || !(words.getFirst().equals("job") || words.getFirst().equals("queue")
                || words.getFirst().equals("sweep"))) {
            return false;
        }
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (STAYS_HERE.contains(a)) {
                return false;
            }
        }
        return true;
    }

    public int run() {
        Output output = context.output();
        List<ForwardProtocol.FileArgument> files;
        try {
            files = scriptFiles();
        } catch (NvidbException e) {
            return output.error(e.code(), e.getMessage());
        }
        if (!onPath("ssh")) {
            return unavailable("ssh (the OpenSSH client) is not on this machine's PATH, and the queue of this"
                    + " machine is on " + remote.host() + " (remote: in " + remote.origin() + "): install"
                    + " openssh-client, or add --local to use this machine's own queue");
        }
        WebTunnel tunnel = WebTunnel.of(words, args, remote, output);
        ForwardProtocol.Header header = new ForwardProtocol.Header(tunnel != null ? tunnel.hostArgs() : List.of(args),
                carriedEnv(), output.terminal(), remote.host(), files);
        onTerminal = tuiOnTerminal();
        List<String> sharing = sharing();
        ProcessBuilder builder = new ProcessBuilder(onTerminal
                ? SshCommand.onTerminal(remote, words, ForwardProtocol.encode(header)).sharing(sharing).argv()
                : signalsIgnored(ssh.sharing(sharing).argv(), !sharing.isEmpty()));
        if (onTerminal) {
            builder.redirectInput(ProcessBuilder.Redirect.INHERIT); // the keys go to the host's terminal
        }
        builder.environment().clear();
        builder.environment().putAll(context.env());
        try {
            process = builder.start();
        } catch (IOException e) {
            return unavailable("could not start ssh to reach the queue host " + remote.host() + ": " + e.getMessage());
        }
        answers = new AnswerStreams(process.getInputStream(), process.getErrorStream(),
                tunnel != null ? tunnel.watch(output.out()) : output.out(), output.err());
        if (tunnel != null) {
            tunnel.onFailureStop(() -> onSignal("INT"));
        }
        answers.start();
        int code;
        if (onTerminal) {
            code = waitFor(); // Ctrl-C is a key of the TUI's there: ssh holds this terminal raw
        } else {
            requests = new RequestStream(process.getOutputStream());
            requests.header(header);
            requests.pump(context.stdin());
            try (ClientSignals relay = context.ownsProcess() ? ClientSignals.relay(this::onSignal) : ClientSignals.none()) {
                code = waitFor();
            }
        }
        answers.awaitEnd(Duration.ofSeconds(5));
        if (requests != null) {
            requests.close();
        }
        if (tunnel != null) {
            tunnel.close();
            if (tunnel.failure() != null) {
                return unavailable(tunnel.failure());
            }
        }
        return outcome(code);
    }

    /**
     * The TUI ({@code nvidb queue}, {@code queue tui}) where this process has a terminal: it runs
     * on a terminal of its own on the host. Elsewhere it is forwarded as any command, and answers
     * as it would here without a terminal.
     */
    private boolean tuiOnTerminal() {
        if (!context.output().terminal() || !words.getFirst().equals("queue")) {
            return false;
        }
        return words.size() == 1 || words.get(1).equals("tui") || !QueueCommand.SUBCOMMANDS.containsKey(words.get(1));
    }

    /**
     * Ctrl-C or SIGTERM here: the first goes to the host command, which stops as it would on its
     * own terminal and still answers (an interrupted {@code --wait} prints its document). Before
     * the host answered at all, or on a second signal, the session is cut instead.
     */
    private void onSignal(String name) {
        byte kind = name.equals("TERM") ? ForwardProtocol.TERMINATE : ForwardProtocol.INTERRUPT;
        if (signals.incrementAndGet() == 1 && answers.handshake() && requests.signal(kind)) {
            return;
        }
        abandonedOn = name;
        process.destroyForcibly();
    }

    private int waitFor() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            // The JVM is shutting down (SIGHUP, or a signal while the TUI holds the terminal): leave
            // nothing behind. ssh on a terminal takes SIGTERM and gives the terminal back first.
            abandonedOn = "HUP";
            if (onTerminal) {
                process.destroy();
                try {
                    process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException again) {
                    // kill it below
                }
            }
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private int outcome(int code) {
        Output output = context.output();
        String host = remote.host();
        if (abandonedOn != null) {
            output.error(ErrorCode.INTERRUPTED, answers.handshake()
                    ? "interrupted: stopped waiting for the queue host " + host + "; the command there was asked to"
                            + " stop and may still be running (nvidb job ls shows what exists)"
                    : "interrupted while connecting to the queue host " + host + "; the command most likely did"
                            + " not start there");
            return switch (abandonedOn) {
                case "TERM" -> 143;
                case "HUP" -> 129;
                default -> ErrorCode.INTERRUPTED.exitCode();
            };
        }
        if (answers.handshake()) {
            if (code == 255) {
                return unavailable("the connection to the queue host " + host + " broke while the command ran there:"
                        + " it may have finished there or may still be running; once " + host + " answers again,"
                        + " nvidb job ls shows what exists");
            }
            return code;
        }
        String said = answers.hostSaid();
        String where = "remote: in " + remote.origin();
        return switch (code) {
            case 255 -> unavailable("could not reach or log in to the queue host " + host
                    + (said.isEmpty() ? "" : ": " + said) + "; check that " + ssh.loginHint() + " works from this"
                    + " machine without a prompt, or fix " + where + " (host, port, username, ssh_options)");
            case 126, 127 -> unavailable("nvidb was not found on the queue host " + host + " at " + remote.nvidb()
                    + (said.isEmpty() ? "" : " (" + said + ")") + ": install nvidb there, or set its absolute"
                    + " path there as nvidb: in " + where);
            default -> unavailable("the nvidb on the queue host " + host + " (" + remote.nvidb() + ") is older than"
                    + " this one and cannot take forwarded commands" + (said.isEmpty() ? "" : " (it said: " + said + ")")
                    + ": install the same nvidb version there as here (nvidb --version)");
        };
    }

    private int unavailable(String message) {
        return context.output().error(ErrorCode.UNAVAILABLE, message);
    }

    /**
     * {@code job submit --script FILE}: the file is read here, where its path means something,
     * and its content travels; the host runs the command with a copy of its own.
     */
    private List<ForwardProtocol.FileArgument> scriptFiles() {
        List<ForwardProtocol.FileArgument> files = new ArrayList<>();
        if (words.size() < 2 || !words.get(0).equals("job")
                || !(words.get(1).equals("submit") || words.get(1).equals("sweep"))) {
            return files;
        }
        for (int i = 0; i < args.length && !args[i].equals("--"); i++) {
            for (String option : FILE_OPTIONS) {
                if (args[i].equals(option) && i + 1 < args.length) {
                    files.add(new ForwardProtocol.FileArgument(i + 1, "", read(args[i + 1], option)));
                    i++;
                    break;
                } else if (args[i].startsWith(option + "=")) {
                    files.add(new ForwardProtocol.FileArgument(i, option + "=", read(args[i].substring(option.length() + 1), option)));
                    break;
                }
            }
        }
        return files;
    }

    private static byte[] read(String script, String option) {
        String what = option.equals("--script") ? "script" : "params file";
        try {
            return Files.readAllBytes(Path.of(script));
        } catch (NoSuchFileException e) {
            throw NvidbException.usage(what + " not found: " + script);
        } catch (IOException | RuntimeException e) {
            throw NvidbException.usage("could not read " + what + " " + script + ": " + e.getMessage());
        }
    }

    /** What travels with the command (decisions.md §11): who submits, from where, how output looks. */
    private Map<String, String> carriedEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NVIDB_SUBMITTER", context.submitter());
        String pwd = context.env().get("PWD");
        if (pwd != null && pwd.startsWith("/")) {
            env.put("PWD", pwd); // "the directory the submit was made from" is this one
        }
        for (String name : CARRIED_ENV) {
            String value = context.env().get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return env;
    }

    /**
     * ssh started with SIGINT, SIGQUIT and SIGTERM ignored (OpenSSH keeps a signal that was
     * ignored at its start ignored): Ctrl-C at a terminal reaches every process of the foreground
     * group, and ssh must outlive it to carry the host command's answer back. This process relays it.
     * A sharing ssh ignores that (ConnectionSharing), so it also leaves the group: {@code setsid}.
     */
    private static List<String> signalsIgnored(List<String> argv, boolean ownSession) {
        String exec = ownSession ? "exec setsid \"$@\"" : "exec \"$@\"";
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", "trap '' INT QUIT TERM; " + exec, "sh"));
        wrapped.addAll(argv);
        return wrapped;
    }

    private boolean onPath(String program) {
        String path = context.env().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
