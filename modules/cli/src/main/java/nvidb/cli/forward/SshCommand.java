package nvidb.cli.forward;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.RemoteSettings;
import nvidb.core.api.ShellQuote;

/**
 * The {@code ssh} command line that runs one forwarded command on the queue host, through the
 * user's own OpenSSH client: {@code ~/.ssh/config}, agents, ProxyJump and ControlMaster sharing
 * all apply, and {@code remote.ssh_options} add {@code -o} options.
 *
 * <p>The command's own arguments are not on this line: they travel in the session's stdin (see
 * {@link ForwardProtocol}). What is, the host's nvidb and its home from {@code remote:}, is quoted
 * once, here, for the host's login shell (which OpenSSH hands the line to); that shell must be a
 * POSIX-like one (sh, bash, dash, zsh, ksh).
 */
record SshCommand(RemoteSettings remote, boolean keeperCommand, String terminalHeader, List<String> sharing) {
    SshCommand {
        sharing = List.copyOf(sharing);
    }

    /** @param words the command words ({@code queue keeper stop}): a keeper command gets no keeper prelude */
    static SshCommand forCommand(RemoteSettings remote, List<String> words) {
        return new SshCommand(remote, keeperCommand(words), null, List.of());
    }

    /** The same command over the connection {@code options} share ({@link ConnectionSharing#options}). */
    SshCommand sharing(List<String> options) {
        return new SshCommand(remote, keeperCommand, terminalHeader, options);
    }

    /**
     * For the TUI on this terminal: a terminal on the host too ({@code ssh -tt}, whose stdin is
     * this one's), and the header on the command line, base64 ({@link ForwardProtocol#HEADER_OPTION}).
     */
    static SshCommand onTerminal(RemoteSettings remote, List<String> words, String header) {
        return new SshCommand(remote, keeperCommand(words), header, List.of());
    }

    private static boolean keeperCommand(List<String> words) {
        return words.size() > 1 && words.get(0).equals("queue") && words.get(1).equals("keeper");
    }

    /**
     * {@code nvidb mcp} on the queue host for the whole of one MCP session: {@code ssh -T} running
     * the host's {@code nvidb mcp} (with {@code NVIDB_SUBMITTER} carried when set here), its stdin
     * and stdout the session's messages.
     */
    static List<String> mcpSession(RemoteSettings remote, String submitter) {
        List<String> argv = new SshCommand(remote, false, null, List.of()).login("-T");
        String env = submitter == null || submitter.isBlank() ? "" : "NVIDB_SUBMITTER=" + ShellQuote.quote(submitter) + " ";
        argv.addAll(List.of("--", remote.host(), "exec " + new SshCommand(remote, false, null, List.of()).hostCommand()
                .replaceFirst("^env ", "env " + env) + " mcp"));
        return argv;
    }

    /** {@code ssh [-p PORT] [-l USER] [-o OPT]... -- HOST 'command line'}. */
    List<String> argv() {
        // No terminal on the host, so stdout and stderr stay apart and byte for byte; the TUI gets one.
        List<String> argv = login(terminalHeader == null ? "-T" : "-tt");
        for (String option : sharing) {
            argv.addAll(List.of("-o", option));
        }
        argv.add("--");
        argv.add(remote.host());
        argv.add(commandLine());
        return argv;
    }

    /**
     * {@code ssh -L BIND:PORT:127.0.0.1:HOSTPORT}: the queue host's loopback port {@code hostPort}
     * on this machine's {@code bindHost:port}, on a connection of its own (closing it closes the
     * forward). It fails rather than run without the forward (ExitOnForwardFailure). The host side
     * reads its stdin until it ends, so the forward also ends when the process that started it dies.
     */
    static List<String> portForward(RemoteSettings remote, String bindHost, int port, int hostPort) {
        List<String> argv = new SshCommand(remote, true, null, List.of()).login("-T");
        argv.addAll(List.of("-o", "ExitOnForwardFailure=yes", "-L", bindHost + ":" + port + ":127.0.0.1:" + hostPort,
                "--", remote.host(), "exec cat >/dev/null"));
        return argv;
    }

    /** {@code ssh TTY -e none [-p PORT] [-l USER] [-o OPT]...}: what every session to the host starts with. */
    private List<String> login(String tty) {
        List<String> argv = new ArrayList<>(List.of("ssh", tty,
                "-e", "none")); // stdin carries frames, or a TUI's keys: no byte of it may be an ssh escape
        if (remote.port() != null) {
            argv.addAll(List.of("-p", remote.port().toString()));
        }
        if (remote.username() != null && !remote.username().isBlank()) {
            argv.addAll(List.of("-l", remote.username()));
        }
        // The user's options first: OpenSSH keeps the first value of each, so theirs win over sharing's.
        for (String option : remote.sshOptions()) {
            argv.addAll(List.of("-o", option));
        }
        return argv;
    }

    /**
     * What the host's login shell runs: the keeper prelude when {@code keeper: ensure} (but not
     * before a {@code queue keeper} command, which says itself what the keeper should do), then
     * {@code env NVIDB_QUEUE_NO_REMOTE=1 [NVIDB_HOME=…] NVIDB --forward-protocol=1} in its place.
     * NVIDB_QUEUE_NO_REMOTE keeps a host that has a remote: of its own from forwarding again.
     */
    String commandLine() {
        String prelude = remote.keeperEnsure() && !keeperCommand ? keeperPrelude() : "";
        return prelude + "exec " + hostCommand() + " " + ForwardProtocol.OPTION
                + (terminalHeader == null ? "" : " " + ForwardProtocol.HEADER_OPTION + terminalHeader);
    }

    /**
     * {@code keeper: ensure}: the host's {@code nvidb queue keeper ensure} runs first, in the same
     * round trip, so that the queue host keeps scheduling between commands. It never reads the
     * session's stdin (the frames are the command's), never writes to stdout, and a failure is
     * one warning on stderr, never the command's failure. The one place that knows how.
     *
     * <p>A shell keeper that runs is seen by its own script ({@code queue-keeper.sh status}: its
     * pid file, and its token on that process's command line, the test {@code ensure} makes), a
     * few milliseconds of sh; only when that says no (down, not installed, a systemd keeper) does a
     * JVM start for {@code ensure}.
     */
    String keeperPrelude() {
        String warning = "warning: the queue keeper on " + remote.host() + " could not be started (nvidb queue"
                + " keeper ensure failed there); this command runs anyway, but nothing schedules jobs on "
                + remote.host() + " between commands. Set keeper: off in remote: to skip this step.";
        return "{ sh " + hostHome() + "/queue-keeper.sh status || " + hostCommand() + " queue keeper ensure; }"
                + " </dev/null >/dev/null 2>&1 || echo " + ShellQuote.quote(warning) + " >&2; ";
    }

    /** The host's NVIDB_HOME, for its shell: remote.nvidb_home, else what the host's nvidb takes. */
    private String hostHome() {
        return remote.nvidbHome() != null && !remote.nvidbHome().isBlank() ? hostPath(remote.nvidbHome())
                : "\"${NVIDB_HOME:-$HOME/.nvidb}\"";
    }

    /** {@code env NVIDB_QUEUE_NO_REMOTE=1 [NVIDB_HOME=…] NVIDB}, quoted for the host's shell. */
    private String hostCommand() {
        StringBuilder s = new StringBuilder("env NVIDB_QUEUE_NO_REMOTE=1 ");
        if (remote.nvidbHome() != null && !remote.nvidbHome().isBlank()) {
            s.append("NVIDB_HOME=").append(hostPath(remote.nvidbHome())).append(' ');
        }
        return s.append(hostPath(remote.nvidb())).toString();
    }

    /** A path on the host, quoted; a leading {@code ~/} is the host user's home, as a person would mean it. */
    static String hostPath(String path) {
        if (path.equals("~")) {
            return "\"$HOME\"";
        }
        if (path.startsWith("~/")) {
            String rest = path.substring(2);
            return "\"$HOME\"/" + (rest.isEmpty() ? "" : ShellQuote.quote(rest));
        }
        return ShellQuote.quote(path);
    }

    /** How a person would log in the same way, for messages: {@code ssh -p 2222 alice@gpu-queue}. */
    String loginHint() {
        StringBuilder s = new StringBuilder("ssh");
        if (remote.port() != null) {
            s.append(" -p ").append(remote.port());
        }
        s.append(' ');
        if (remote.username() != null && !remote.username().isBlank()) {
            s.append(remote.username()).append('@');
        }
        return s.append(remote.host()).toString();
    }
}
