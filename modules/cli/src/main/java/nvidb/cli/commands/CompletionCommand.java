package nvidb.cli.commands;

import java.nio.file.Files;
import java.util.List;
import java.util.function.Supplier;
import nvidb.cli.completion.BashCompletion;
import nvidb.cli.completion.CommandTree;
import nvidb.cli.completion.FishCompletion;
import nvidb.cli.completion.ZshCompletion;
import nvidb.core.api.Caller;
import nvidb.core.api.Job;
import nvidb.core.api.JobQuery;
import nvidb.core.api.LaneQueries;
import nvidb.core.api.NodeAdmin;
import nvidb.core.api.NvidbException;
import nvidb.core.app.Application;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "completion", mixinStandardHelpOptions = true, description = {
        "Print the completion script of a shell (bash, zsh or fish).",
        "Every command, subcommand and option completes, and job ids, node names and lane",
        "names complete from this machine's queue (never over SSH). The packages install the",
        "scripts where each shell looks; otherwise write one where your shell reads them:",
        "bash: ~/.local/share/bash-completion/completions/nvidb; zsh: _nvidb in a folder on",
        "$fpath; fish: ~/.config/fish/completions/nvidb.fish."})
public final class CompletionCommand extends BaseCommand {
    /** The shells a script is written for. */
    public enum Shell { bash, zsh, fish }

    /** How many of the newest jobs complete as ids. */
    static final int JOB_CANDIDATES = 200;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SHELL", description = "bash, zsh or fish.")
    Shell shell;

    @Option(names = "--candidates", hidden = true, paramLabel = "KIND",
            description = "What the scripts call: the job ids, node names or lane names of this machine's queue.")
    CommandTree.Kind candidates;

    private final Supplier<CommandLine> tree;

    /** @param tree the whole command tree, as the CLI parses it */
    public CompletionCommand(Supplier<CommandLine> tree) {
        this.tree = tree;
    }

    @Override
    protected int execute() {
        if (candidates != null) {
            candidates().forEach(out()::line);
            return 0;
        }
        if (shell == null) {
            throw NvidbException.usage("name the shell: nvidb completion bash, zsh or fish");
        }
        CommandLine root = tree.get();
        out().raw(switch (shell) {
            case bash -> BashCompletion.script(root);
            case zsh -> ZshCompletion.script(root);
            case fish -> FishCompletion.script(root);
        });
        return 0;
    }

    /**
     * The values of one kind in this machine's queue; nothing where there is no queue file yet (a
     * Tab creates none), where the configuration forwards to a queue host, or where it fails:
     * a completion says nothing rather than an error.
     */
    private List<String> candidates() {
        if (!Files.exists(ctx().database())) {
            return List.of();
        }
        try {
            Application app = ctx().app();
            Caller caller = ctx().caller();
            return switch (candidates) {
                case JOBS -> app.jobList(caller, new JobQuery(null, false, null, null, JOB_CANDIDATES)).stream()
                        .map(Job::id).map(String::valueOf).toList();
                case NODES -> app.nodeViews(caller, false).stream().map(NodeAdmin.NodeView::node)
                        .map(n -> n.name()).toList();
                case LANES -> app.laneViews(caller, null).stream().map(LaneQueries.LaneView::lane)
                        .map(l -> l.name()).toList();
            };
        } catch (NvidbException e) {
            return List.of();
        }
    }
}
