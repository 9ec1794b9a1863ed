package nvidb.cli.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import nvidb.cli.completion.ManPages;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The build's: writes the manual pages of the whole command tree (see distribution/src/package.sh). */
@Command(name = "manpages", hidden = true, mixinStandardHelpOptions = true, description = {
        "Write one manual page per command (nvidb.1, nvidb-job-submit.1, ...) into DIR."})
public final class ManPagesCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "DIR", description = "The folder to write the pages to (created).")
    Path dir;

    private final Supplier<CommandLine> tree;

    /** @param tree the whole command tree, as the CLI parses it */
    public ManPagesCommand(Supplier<CommandLine> tree) {
        this.tree = tree;
    }

    @Override
    protected int execute() {
        CommandLine root = tree.get();
        String version = root.getCommandSpec().version().length > 0 ? root.getCommandSpec().version()[0] : "nvidb";
        List<String> pages = ManPages.write(root, version, dir).stream().map(Path::toString).toList();
        if (json()) {
            out().document(new Written(true, dir.toAbsolutePath().toString(), pages));
        } else {
            pages.forEach(out()::line);
        }
        return 0;
    }

    /** {@code --json}: the folder and every page written into it. */
    record Written(boolean ok, String dir, List<String> pages) {
    }
}
