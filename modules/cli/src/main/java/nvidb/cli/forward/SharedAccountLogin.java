package nvidb.cli.forward;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.cli.output.Output;
import nvidb.core.api.Caller;
import nvidb.core.api.ErrorCode;

/**
 * {@code nvidb queue users login NAME}: the forced command of one key in the shared account's
 * {@code authorized_keys} ({@code nvidb queue users add}). sshd runs it for that key whatever the
 * client asked, with the client's command line in {@code SSH_ORIGINAL_COMMAND}; this reads that
 * line without a shell ({@link ShellWords}), accepts only an nvidb command, exactly as nvidb's own
 * clients send one (a forwarded command with its keeper prelude, the TUI's, {@code nvidb mcp}, or
 * {@code nvidb ARGS} typed over ssh), and runs it here, in this process, as {@code NAME}
 * ({@link Caller#vouch}). Anything else (a shell, scp, sftp, another program) is refused with
 * {@code forbidden}. NAME comes from the forced command alone: nothing the client sends sets it.
 */
public final class SharedAccountLogin {
    /** The variables a client may set before the program word; any other is refused. */
    private static final Set<String> CLIENT_VARIABLES = Set.of("NVIDB_QUEUE_NO_REMOTE", "NVIDB_HOME", "NVIDB_SUBMITTER",
            "NO_COLOR", "COLUMNS");

    /**
     * The command to run as the key's user: {@code args} in {@code env}, after {@code queue keeper
     * ensure} when {@code keeperEnsure} (the prelude asked for it); or {@code exit}, at once.
     */
    public record Login(String[] args, Map<String, String> env, boolean keeperEnsure, Integer exit) {
    }

    /** What the client asked for, read: the nvidb arguments, their environment, and whether the keeper prelude came first. */
    record Asked(List<String> args, Map<String, String> env, boolean keeperEnsure) {
    }

    private SharedAccountLogin() {
    }

    /** Whether this command line is the login entry: exactly {@code queue users login NAME}. */
    public static boolean handles(String[] args) {
        return args.length == 4 && args[0].equals("queue") && args[1].equals("users") && args[2].equals("login");
    }

    public static Login accept(String[] args, Map<String, String> env, Output output) {
        String name = args[3];
        if (!nvidb.core.app.SharedAccountUsers.isUserName(name)) {
            return exit(output.error(ErrorCode.USAGE, "queue users login takes a user name like alice ([a-z_][a-z0-9_-]{0,31}),"
                    + " not '" + name + "'"));
        }
        String asked = env.get("SSH_ORIGINAL_COMMAND");
        if (asked == null || asked.isBlank()) {
            output.err().println("You are " + name + " on this queue, through the shared account " + Caller.processAccount()
                    + ". This key runs nvidb commands only, never a shell: name this host in remote: of your"
                    + " ~/.nvidb/queue.yml (nvidb forwards job and queue commands here), or run one command,"
                    + " e.g. ssh " + Caller.processAccount() + "@<this host> nvidb queue status");
            return exit(ErrorCode.USAGE.exitCode());
        }
        Caller.vouch(name);
        Asked command;
        try {
            command = read(asked, env);
        } catch (IllegalArgumentException refused) {
            return exit(output.error(ErrorCode.FORBIDDEN, "this key (" + name + ") runs nvidb commands only, and was"
                    + " asked to run " + brief(asked) + ": " + refused.getMessage()));
        }
        return new Login(command.args().toArray(String[]::new), command.env(), command.keeperEnsure(), null);
    }

    /**
     * Reads {@code SSH_ORIGINAL_COMMAND}: an nvidb command, alone or after nvidb's keeper prelude.
     *
     * @throws IllegalArgumentException saying what in it is not that
     */
    static Asked read(String asked, Map<String, String> env) {
        List<List<ShellWords.Token>> commands = commands(ShellWords.split(asked, env));
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("an empty command");
        }
        boolean keeperEnsure = commands.size() > 1;
        if (keeperEnsure && !keeperPrelude(commands)) {
            throw new IllegalArgumentException("more than one command (only nvidb's own keeper prelude may come first)");
        }
        List<ShellWords.Token> last = commands.getLast();
        for (ShellWords.Token t : last) {
            if (t.operator()) {
                throw new IllegalArgumentException("'" + t.text() + "' (one nvidb command, without pipes, lists or redirections)");
            }
        }
        List<String> words = new ArrayList<>(last.stream().map(ShellWords.Token::text).toList());
        if (!words.isEmpty() && words.getFirst().equals("exec")) {
            words.removeFirst();
        }
        if (!words.isEmpty() && words.getFirst().equals("env")) {
            words.removeFirst();
        }
        Map<String, String> commandEnv = new HashMap<>(env);
        while (!words.isEmpty() && words.getFirst().matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
            String assignment = words.removeFirst();
            String variable = assignment.substring(0, assignment.indexOf('='));
            if (!CLIENT_VARIABLES.contains(variable)) {
                throw new IllegalArgumentException("the variable " + variable + " (a client may set only "
                        + String.join(", ", CLIENT_VARIABLES.stream().sorted().toList()) + ")");
            }
            commandEnv.put(variable, assignment.substring(variable.length() + 1));
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException("no program");
        }
        String program = words.removeFirst();
        if (!program.equals("nvidb") && !program.endsWith("/nvidb")) {
            throw new IllegalArgumentException("the program " + program + " (not nvidb)");
        }
        // A login never forwards again: the command is this queue's, for this key's user.
        commandEnv.put("NVIDB_QUEUE_NO_REMOTE", "1");
        return new Asked(List.copyOf(words), Map.copyOf(commandEnv), keeperEnsure);
    }

    /** The tokens as commands: what {@code ;} separates (an empty one, after a last {@code ;}, dropped). */
    private static List<List<ShellWords.Token>> commands(List<ShellWords.Token> tokens) {
        List<List<ShellWords.Token>> commands = new ArrayList<>();
        List<ShellWords.Token> current = new ArrayList<>();
        for (ShellWords.Token t : tokens) {
            if (t.operator() && t.text().equals(";")) {
                commands.add(current);
                current = new ArrayList<>();
            } else {
                current.add(t);
            }
        }
        commands.add(current);
        commands.removeIf(List::isEmpty);
        return commands;
    }

    /**
     * {@link SshCommand#keeperPrelude()}, as it splits at its semicolons: {@code { sh …status ||
     * … nvidb queue keeper ensure}, then {@code } … || echo WARNING >&2}, then the command.
     */
    private static boolean keeperPrelude(List<List<ShellWords.Token>> commands) {
        if (commands.size() != 3) {
            return false;
        }
        List<String> first = commands.get(0).stream().map(ShellWords.Token::text).toList();
        List<String> second = commands.get(1).stream().map(ShellWords.Token::text).toList();
        return first.getFirst().equals("{") && first.size() > 3
                && first.subList(first.size() - 3, first.size()).equals(List.of("queue", "keeper", "ensure"))
                && second.getFirst().equals("}") && second.contains("echo");
    }

    private static String brief(String asked) {
        String line = asked.strip().replaceAll("\\s+", " ");
        return "'" + (line.length() > 80 ? line.substring(0, 77) + "..." : line) + "'";
    }

    private static Login exit(int code) {
        return new Login(null, null, false, code);
    }
}
