package nvidb.cli.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.cli.output.SweepViews;
import nvidb.core.api.Sweeps;
import nvidb.core.app.SubmitInput;
import nvidb.core.view.SweepDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "sweep", mixinStandardHelpOptions = true, description = {
        "Queue one run of the command per parameter set, all at once (all runs or none).",
        "{name} in the command is the run's value ({{ is a brace); each run has $NVIDB_SWEEP_ID,"
                + " $NVIDB_SWEEP_INDEX and $NVIDB_PARAM_<NAME>. Every job option applies to every run."})
public final class JobSweep extends BaseCommand {
    @Mixin
    SubmitOptions job;

    @Option(names = "--grid", paramLabel = "NAME=V1,V2", description = "Values of one parameter; several --grid make the cross product.")
    List<String> grid = new ArrayList<>();

    @Option(names = "--zip", paramLabel = "NAME=V1,V2", description = "Values paired one by one with the other --zip lists (same length).")
    List<String> zip = new ArrayList<>();

    @Option(names = "--random", paramLabel = "N", description = "Draw N runs at random from the --range parameters.")
    Integer random;

    @Option(names = "--seed", paramLabel = "S", description = "The random draws' seed: the same seed makes the same runs (default: one is picked and kept).")
    Long seed;

    @Option(names = "--range", paramLabel = "NAME=KIND:…", description = "A random parameter: uniform:A:B, loguniform:A:B, int:A:B or choice:X,Y.")
    List<String> ranges = new ArrayList<>();

    @Option(names = "--params-file", paramLabel = "FILE", description = "One JSON object of parameters a line, one run each.")
    Path paramsFile;

    @Option(names = "--max-parallel", paramLabel = "K", description = "Never more than K runs of the sweep under way at once.")
    Integer maxParallel;

    @Option(names = "--force", description = "Allow more than 10000 runs.")
    boolean force;

    @Option(names = "--dry-run", description = "Print the runs the sweep would make; submit nothing.")
    boolean dryRun;

    @Mixin
    NoTickOption tick;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command (after --), or one quoted string.")
    List<String> command = new ArrayList<>();

    @Override
    protected int execute() {
        SubmitInput input = job.input(command);
        List<String> words = input.words();
        List<String> lines = paramsFile == null ? null : SubmitInput.paramsLines(paramsFile);
        Sweeps.SweepRequest request = new Sweeps.SweepRequest(input.request(ctx().app().jobOps(), ctx().caller(), "-"),
                words, grid, zip, random, seed, ranges, lines, paramsFile == null ? null : paramsFile.toString(),
                maxParallel, force);
        SweepDocuments.Submitted s = ctx().app().sweeps().submit(ctx().caller(), request, dryRun, tick.after());
        if (json()) {
            out().document(s);
            return 0;
        }
        if (s.dryRun()) {
            out().line(SweepViews.runTable(s.runs(), s.sweep().params()));
            out().line("dry run: " + s.runs().size() + " run(s) of sweep " + s.sweep().name() + "; nothing was submitted");
        } else {
            List<Long> ids = s.runs().stream().map(SweepDocuments.Run::jobId).filter(java.util.Objects::nonNull).toList();
            out().line((s.duplicate() ? "already submitted as sweep " : "submitted sweep ") + s.sweep().id() + " ("
                    + s.sweep().name() + "): " + s.runs().size() + " run(s)"
                    + (ids.isEmpty() ? "" : ", jobs " + ids.getFirst() + ".." + ids.getLast()));
            Object seedUsed = s.sweep().spec().get("random") instanceof java.util.Map<?, ?> m ? m.get("seed") : null;
            if (seedUsed != null && seed == null) {
                out().line("  random draws with seed " + seedUsed + " (--seed " + seedUsed + " makes the same runs)");
            }
            out().line("  follow it: nvidb sweep show " + s.sweep().id());
        }
        return 0;
    }
}
