package nvidb.cli.commands;

import nvidb.core.app.QueueSharing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "share", mixinStandardHelpOptions = true, description = {
        "Share this queue's database with a Unix group: its folder becomes the group's (mode 2770, setgid),"
                + " its files group read-write; nvidb keeps every new queue file there so, whatever the umask.",
        "Each member then points NVIDB_QUEUE_DB (or --db-path) at the database. A job is changed only by the"
                + " account that submitted it and by queue.admins."})
public final class QueueShare extends BaseCommand {
    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The Unix group of the queue's members.")
    String group;

    @Override
    protected int execute() {
        QueueSharing.Shared s = QueueSharing.share(ctx().database(), group);
        if (json()) {
            out().document(s);
            return 0;
        }
        out().line("shared " + s.folder() + " with group " + s.group() + " (mode " + s.mode() + ")");
        out().line("each member of " + s.group() + " adds to their shell's profile:");
        out().line("  " + s.memberSetup());
        return 0;
    }
}
