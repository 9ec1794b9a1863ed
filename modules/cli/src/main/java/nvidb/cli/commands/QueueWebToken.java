package nvidb.cli.commands;

import java.util.List;
import nvidb.core.app.WebTokenOperations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code nvidb queue web token …}: per-user tokens of the web server and its /mcp, kept in the queue database. */
@Command(name = "token", mixinStandardHelpOptions = true, description = {
        "Per-user tokens of the web server and its /mcp: a request with a user's token acts as that user (jobs it"
                + " submits are theirs; another's job is refused, 403). Kept in the queue database (their SHA-256 only),"
                + " so every web server of this queue knows them; $NVIDB_HOME/web.token stays the token of the account"
                + " that runs the server."},
        subcommands = {QueueWebToken.Add.class, QueueWebToken.Ls.class, QueueWebToken.Revoke.class})
public final class QueueWebToken implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "pick a token subcommand (add, ls, revoke)");
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = {
            "Makes a token for NAME and prints it, this once (only its hash is kept). NAME, queue.admins and the queue's"
                    + " owner may make NAME's tokens."})
    public static final class Add extends BaseCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "The user, account-like: [a-z_][a-z0-9_-]{0,31}.")
        String name;

        @Override
        protected int execute() {
            WebTokenOperations.Issued issued = ctx().app().webTokens().add(ctx().caller(), name);
            if (json()) {
                out().document(issued);
            } else {
                out().line(issued.token());
                out().note("web token " + issued.id() + " for " + issued.user() + ": shown this once; send it as"
                        + " Authorization: Bearer <token>, or open the web page's link with #token=<token>");
            }
            return 0;
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, description = {
            "The tokens: id, user, when made and by whom, when last used (to the minute). Never a token itself."})
    public static final class Ls extends BaseCommand {
        @Override
        protected int execute() {
            List<WebTokenOperations.Listed> tokens = ctx().app().webTokens().list(ctx().caller());
            if (json()) {
                out().document(tokens);
            } else if (tokens.isEmpty()) {
                out().line("no web tokens (nvidb queue web token add NAME)");
            } else {
                out().line(String.format("%-6s %-16s %-26s %s", "ID", "USER", "CREATED", "LAST USED"));
                tokens.forEach(t -> out().line(String.format("%-6d %-16s %-26s %s", t.id(), t.user(),
                        t.createdAt(), t.lastUsedAt() == null ? "never" : t.lastUsedAt())));
            }
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = {
            "Revokes a token (by its id) or every token of a user (by name): refused from the next request on."})
    public static final class Revoke extends BaseCommand {
        @Parameters(index = "0", paramLabel = "ID|NAME", description = "A token's id (queue web token ls), or a user.")
        String what;

        @Override
        protected int execute() {
            WebTokenOperations.Revoked revoked = ctx().app().webTokens().revoke(ctx().caller(), what);
            if (json()) {
                out().document(revoked);
            } else {
                revoked.revoked().forEach(t -> out().line("revoked web token " + t.id() + " of " + t.user()));
            }
            return 0;
        }
    }
}
