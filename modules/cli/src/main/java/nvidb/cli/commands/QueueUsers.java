package nvidb.cli.commands;

import java.nio.file.Path;
import java.util.List;
import nvidb.core.app.SharedAccountUsers;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb queue users …}: the users of a queue host's shared account, one SSH key each in
 * that account's {@code authorized_keys} (see {@link SharedAccountUsers}). The login entry those
 * keys run, {@code queue users login NAME}, is not a command here: Main takes it before any
 * parsing (nvidb.cli.forward.SharedAccountLogin).
 */
@Command(name = "users", mixinStandardHelpOptions = true, description = {
        "The users of this queue host's shared account (e.g. nvidb): one SSH key each in that account's authorized_keys,"
                + " whose forced command runs nvidb as that user and nothing else (no shell, no forwarding).",
        "Run these as the shared account. A key's user owns the jobs it submits; queue.admins act on any."},
        subcommands = {QueueUsers.Add.class, QueueUsers.Ls.class, QueueUsers.Rm.class})
public final class QueueUsers implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "pick a users subcommand (add, ls, rm)");
    }

    /** What the subcommands share: which authorized_keys. */
    abstract static class Sub extends BaseCommand {
        @Option(names = "--authorized-keys", paramLabel = "PATH",
                description = "The authorized_keys file to manage (default: this account's ~/.ssh/authorized_keys).")
        Path authorizedKeys;

        Path file() {
            return authorizedKeys != null ? authorizedKeys : SharedAccountUsers.defaultFile(ctx().env());
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = {
            "Lets the holder of a public key in as NAME: adds the line command=\"NVIDB queue users login NAME\",restrict"
                    + " KEY to authorized_keys (made 0600, in a 0700 ~/.ssh, when missing). Other lines stay as they are."})
    public static final class Add extends Sub {
        @Parameters(index = "0", paramLabel = "NAME", description = "The user, account-like: [a-z_][a-z0-9_-]{0,31}.")
        String name;

        @Option(names = "--key", required = true, paramLabel = "FILE", description = "Their public key file (one line, as ssh-keygen writes id_ed25519.pub).")
        Path key;

        @Option(names = "--nvidb", paramLabel = "PATH",
                description = "The nvidb the forced command runs (default: this one, bin/nvidb of its image).")
        String nvidb;

        @Override
        protected int execute() {
            String program = nvidb != null ? nvidb : System.getProperty("nvidb.launcher");
            SharedAccountUsers.UserKey added = SharedAccountUsers.add(file(), name, key, program);
            if (json()) {
                out().document(added);
            } else {
                out().line("added " + added.user() + " (" + added.keyType() + " " + added.fingerprint() + ") to " + file());
            }
            return 0;
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, description = {
            "The users with a key in authorized_keys: user, key type, fingerprint (SHA256, as ssh-keygen -lf prints it)."})
    public static final class Ls extends Sub {
        @Override
        protected int execute() {
            List<SharedAccountUsers.UserKey> keys = SharedAccountUsers.list(file());
            if (json()) {
                out().document(keys);
            } else if (keys.isEmpty()) {
                out().line("no users in " + file() + " (nvidb queue users add NAME --key FILE.pub)");
            } else {
                keys.forEach(k -> out().line(String.format("%-16s %-20s %s", k.user(), k.keyType(), k.fingerprint())));
            }
            return 0;
        }
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = {
            "Removes every key of NAME from authorized_keys: their next login is refused (a session open now goes on)."})
    public static final class Rm extends Sub {
        @Parameters(index = "0", paramLabel = "NAME", description = "The user.")
        String name;

        @Override
        protected int execute() {
            SharedAccountUsers.Removed removed = SharedAccountUsers.remove(file(), name);
            if (json()) {
                out().document(removed);
            } else {
                out().line("removed " + removed.keys().size() + " key(s) of " + removed.user() + " from " + file());
            }
            return 0;
        }
    }
}
