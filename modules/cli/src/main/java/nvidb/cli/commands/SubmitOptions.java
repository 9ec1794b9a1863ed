package nvidb.cli.commands;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.app.SubmitInput;
import picocli.CommandLine.Option;

/** What a job is to be: the options {@code job submit} and {@code job sweep} share (a sweep applies them to every run). */
public final class SubmitOptions {
    @Option(names = {"-n", "--name"}, description = "A label for the job (a sweep's runs are NAME-0, NAME-1, …).")
    String name;

    @Option(names = "--vram", paramLabel = "SIZE|auto", converter = NonBlank.class, description = "VRAM to reserve per GPU (20G, 512M, 20480), or auto: learned from the peaks of its earlier runs (same name, sweep or command). Default: queue.default_vram.")
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

    @Option(names = "--after", paramLabel = "IDS", description = "Run only after these jobs complete (comma lists, repeatable; sweep:ID is every run of a sweep).")
    List<String> after = new ArrayList<>();

    @Option(names = "--after-any", paramLabel = "IDS", description = "Run once these jobs finish, whatever the outcome (sweep:ID too).")
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
            description = "A second submit with the same key returns the first job (or sweep) instead of creating another.")
    String idempotencyKey;

    @Option(names = "--oom-retry", paramLabel = "N", description = "After running out of GPU memory, requeue with a larger reservation up to N times (default: queue.oom_retry, 1).")
    Integer oomRetry;

    @Option(names = "--no-burst", description = "Keep the job on the workstations: never overflow it to a Slurm node (burst: true).")
    boolean noBurst;

    /** These options as the application layer takes them, with {@code command} as the command's words. */
    SubmitInput input(List<String> command) {
        return new SubmitInput(name, vram, gpus, node, lane, at, note, after, afterAny, timeout, retries, workdir, env,
                priority, tags, script, submitter, idempotencyKey, noBurst, oomRetry, command);
    }
}
