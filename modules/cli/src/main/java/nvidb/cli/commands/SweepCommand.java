package nvidb.cli.commands;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nvidb sweep …}: following a parameter sweep made by {@code job sweep}. */
@Command(name = "sweep", mixinStandardHelpOptions = true, description = {
        "Follow, compare, cancel, requeue and wait for parameter sweeps (made by nvidb job sweep)."})
public final class SweepCommand implements Runnable {
    /** The subcommands, by name; the command line registers only the one it runs (start-up time). */
    public static final java.util.Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS = new Subcommands()
            .add("ls", SweepList::new)
            .add("show", SweepShow::new)
            .add("export", SweepExport::new)
            .add("wait", SweepWait::new)
            .add("cancel", SweepCancel::new)
            .add("requeue", SweepRequeue::new)
            .map();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "pick a sweep subcommand (ls, show, export, wait, cancel, requeue)");
    }
}
