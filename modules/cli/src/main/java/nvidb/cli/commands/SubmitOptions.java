package nvidb.cli.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SubmitRequest;
import nvidb.core.app.JobOperations;
import picocli.CommandLine.Option;

/** What a job is to be: the options {@code job submit} and {@code job sweep} share (a sweep applies them to every run). */
public final class SubmitOptions {
    @Option(names = {"-n", "--name"}, description = "A label for the job (a sweep's runs are NAME-0, NAME-1, …).")
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

    @Option(names = "--no-burst", description = "Keep the job on the workstations: never overflow it to a Slurm node (burst: true).")
    boolean noBurst;

    /** The request these options make, with {@code command} as its command and {@code sweep:ID} dependencies resolved. */
    SubmitRequest request(JobOperations jobs, Caller caller, String command) {
        return new SubmitRequest(name, command, workdir, env(), priority, gpus, vram, node, lane, at,
                jobs.dependencies(caller, after), jobs.dependencies(caller, afterAny), timeout, retries, tags, submitter,
                note, idempotencyKey, noBurst);
    }

    /**
     * The command's words: the script's text as one shell string, else what follows {@code --}
     * (one word is itself a shell command line).
     */
    List<String> commandWords(List<String> command) {
        if (script != null) {
            if (!command.isEmpty()) {
                throw NvidbException.usage("pass the command either with --script FILE or after --, not both");
            }
            try {
                return List.of(Files.readString(script, StandardCharsets.UTF_8));
            } catch (java.nio.file.NoSuchFileException e) {
                throw NvidbException.usage("script not found: " + script);
            } catch (IOException e) {
                throw NvidbException.usage("could not read script " + script + ": " + e.getMessage());
            }
        }
        if (command.isEmpty()) {
            throw NvidbException.usage("nothing to run: pass a command after --, or --script FILE");
        }
        return command;
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
