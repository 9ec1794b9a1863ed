package nvidb.core.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.api.SubmitRequest;

/**
 * What a job is to be, as a front end received it: the options of {@code job submit} and
 * {@code job sweep} (the CLI's flags, an MCP tool's arguments, an HTTP body) before they are a
 * {@link SubmitRequest}. The rules that turn the one into the other (a script or a command, not
 * both; {@code KEY=VALUE} environment; {@code sweep:ID} dependencies) live here, once for every
 * front end.
 *
 * @param command the command's words (after {@code --}; one word is itself a shell command line)
 * @param script  a file whose text is the command, or null
 */
public record SubmitInput(String name, String vram, int gpus, String node, String lane, String at, String note,
                          List<String> after, List<String> afterAny, Integer timeout, int retries, String workdir,
                          List<String> env, int priority, List<String> tags, Path script, String submitter,
                          String idempotencyKey, boolean noBurst, Integer oomRetry, List<String> command) {
    public SubmitInput {
        after = List.copyOf(after);
        afterAny = List.copyOf(afterAny);
        env = List.copyOf(env);
        tags = List.copyOf(tags);
        command = List.copyOf(command);
    }

    /** The request, with {@code commandLine} as its command and {@code sweep:ID} dependencies resolved. */
    public SubmitRequest request(JobOperations jobs, Caller caller, String commandLine) {
        return new SubmitRequest(name, commandLine, workdir, environment(), priority, gpus, vram, node, lane, at,
                jobs.dependencies(caller, after), jobs.dependencies(caller, afterAny), timeout, retries, tags, submitter,
                note, idempotencyKey, noBurst, oomRetry);
    }

    /**
     * The command's words: the script's text as one shell string, else the command words (one word
     * is itself a shell command line).
     */
    public List<String> words() {
        if (script != null) {
            if (!command.isEmpty()) {
                throw NvidbException.usage("pass the command either with --script FILE or after --, not both");
            }
            try {
                return List.of(Files.readString(script, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
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

    /** The lines of a sweep's {@code --params-file}. */
    public static List<String> paramsLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw NvidbException.usage("params file not found: " + file);
        } catch (IOException e) {
            throw NvidbException.usage("could not read params file " + file + ": " + e.getMessage());
        }
    }

    private Map<String, String> environment() {
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
