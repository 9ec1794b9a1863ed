package nvidb.cli.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Ids;
import nvidb.core.api.Job;
import nvidb.core.api.JobCommands;
import nvidb.core.api.JobState;
import nvidb.core.api.NvidbException;
import nvidb.core.api.ShellQuote;
import nvidb.core.api.SubmitRequest;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import nvidb.core.view.TickView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "submit", mixinStandardHelpOptions = true, description = {
        "Queue a job. Put the command last, after --, or pass it as one quoted string."})
public final class JobSubmit extends BaseCommand {
    @Option(names = {"-n", "--name"}, description = "A label for the job.")
    String name;

    @Option(names = "--vram", paramLabel = "SIZE", converter = NonBlank.class, description = "VRAM to reserve per GPU (20G, 512M, 20480). Default: queue.default_vram.")
    String vram;

    @Option(names = "--gpus", paramLabel = "N", description = "GPUs required (default 1; 0 for CPU-only work).")
    int gpus = 1;

    @Option(names = "--node", description = "Pin to one node (exact, case-insensitive, or unique prefix).")
    String node;

    @Option(names = "--lane", paramLabel = "NODE:GPU", description = "Append to a lane (runs strictly in order on that GPU).")
    String lane;

    @Option(names = "--at", paramLabel = "head|tail|N", converter = NonBlank.class, description = "Position within the lane (default tail).")
    String at;

    @Option(names = "--note", description = "What the job is for and what success looks like.")
    String note;

    @Option(names = "--after", paramLabel = "IDS", description = "Run only after these jobs complete (comma lists, repeatable).")
    List<String> after = new ArrayList<>();

    @Option(names = "--after-any", paramLabel = "IDS", description = "Run once these jobs finish, whatever the outcome.")
    List<String> afterAny = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job when it runs longer than this.")
    Integer timeout;

    @Option(names = "--retries", paramLabel = "N", description = "Start again if the process vanishes (default 0).")
    int retries;

    @Option(names = "--workdir", paramLabel = "DIR", description = "Directory to run in on the node (~ is expanded); "
            + "default: the one this submit is made from when the node has it, else $HOME.")
    String workdir;

    @Option(names = "--env", paramLabel = "KEY=VALUE", description = "Environment for the job (repeatable).")
    List<String> env = new ArrayList<>();

    @Option(names = "--priority", paramLabel = "N", description = "Higher dispatches first (default 0).")
    int priority;

    @Option(names = "--tag", description = "A free-form tag (repeatable).")
    List<String> tags = new ArrayList<>();

    @Option(names = "--script", paramLabel = "FILE", description = "Use this file's contents as the command.")
    Path script;

    @Option(names = "--submitter", description = "Who submitted it (default: $NVIDB_SUBMITTER, else user@host:pid).")
    String submitter;

    @Option(names = "--idempotency-key", paramLabel = "KEY",
            description = "A second submit with the same key returns the first job instead of creating another.")
    String idempotencyKey;

    @Option(names = "--no-burst", description = "Keep the job on the workstations: never overflow it to a Slurm node (burst: true).")
    boolean noBurst;

    @Option(names = "--wait", description = "Block until the job ends (exit 0 completed, 1 ended badly, 2 --wait-timeout ran out).")
    boolean waitForIt;

    @Option(names = "--wait-timeout", paramLabel = "SECONDS", description = "Stop waiting after this long (exit 2).")
    Integer waitTimeout;

    @Mixin
    NoTickOption tick;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "The command (after --), or one quoted string.")
    List<String> command = new ArrayList<>();

    @Override
    protected int execute() {
        SubmitRequest request = new SubmitRequest(name, commandText(), workdir, env(), priority, gpus, vram, node,
                lane, at, Ids.parseLists(after), Ids.parseLists(afterAny), timeout, retries, tags, submitter, note,
                idempotencyKey, noBurst);
        JobCommands.Submitted s = service().jobCommands().submit(request, tick.after());
        Job job = s.job();
        Waiting.Outcome waited = null;
        if (waitForIt && !job.state().terminal()) {
            waited = Waiting.until(service(), java.util.List.of(job.id()), waitTimeout, out());
            job = waited.jobs().getFirst();
        }
        if (json()) {
            out().document(new JobDocuments.Submitted(true, s.duplicate(), JobView.of(job, now()), TickView.of(s.tick()),
                    waitForIt ? (Boolean) (waited != null && waited.interrupted()) : null));
        } else {
            out().line((s.duplicate() ? "already submitted as job " : "submitted job ") + job.id() + " ("
                    + job.displayState() + ")");
            out().line(placementLine(job));
            if (waited != null && waited.interrupted()) {
                out().note(waited.interruptedNote());
            }
        }
        if (waitForIt) {
            return waited != null ? waited.exitCode() : job.state() == JobState.COMPLETED ? 0 : 1;
        }
        return job.state() == JobState.FAILED ? 1 : 0;
    }

    private static String placementLine(Job job) {
        if (job.state() == JobState.RUNNING) {
            return "  running on " + job.node() + " GPU " + (job.gpuIds().isEmpty() ? "-" : job.gpuIds());
        }
        if (job.state() == JobState.COMPLETED) {
            return "  completed on " + job.node() + " (exit 0); its output: nvidb job logs " + job.id();
        }
        if (job.state().terminal()) {
            return "  " + job.state().label() + (job.lastError() == null ? "" : ": " + job.lastError());
        }
        if (job.held()) {
            return "  held: " + job.heldReason();
        }
        if (job.lane() != null) {
            return "  queued in lane " + job.lane();
        }
        if (!job.dependsOn().isEmpty() || !job.dependsAny().isEmpty()) {
            return "  waiting for its dependencies";
        }
        return "  waiting for capacity; it starts on the next tick that fits it";
    }

    private String commandText() {
        if (script != null) {
            try {
                return Files.readString(script, StandardCharsets.UTF_8);
            } catch (java.nio.file.NoSuchFileException e) {
                throw NvidbException.usage("script not found: " + script);
            } catch (IOException e) {
                throw NvidbException.usage("could not read script " + script + ": " + e.getMessage());
            }
        }
        if (command.isEmpty()) {
            throw NvidbException.usage("nothing to run: pass a command after --, or --script FILE");
        }
        return command.size() == 1 ? command.getFirst() : ShellQuote.join(command);
    }

    private Map<String, String> env() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : env) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw NvidbException.usage("--env takes KEY=VALUE, got '" + pair + "'");
            }
            out.put(pair.substring(0, eq).strip(), pair.substring(eq + 1));
        }
        return out;
    }
}
