package nvidb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import nvidb.cli.context.CliContext;
import nvidb.cli.forward.ForwardClient;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.HealthCheck;
import nvidb.core.api.Json;
import nvidb.core.api.NvidbException;
import nvidb.core.api.RemoteSettings;

/**
 * {@code nvidb doctor} on a client whose configuration names a queue host ({@code remote:}): one
 * forwarded command ({@code queue keeper status}), exactly as every job and queue command goes
 * there, says whether the host answers and runs an nvidb that takes this one's commands.
 */
final class QueueHostCheck {
    static final String NAME = "queue host";
    private static final String[] PROBE = {"--json", "queue", "keeper", "status"};

    private QueueHostCheck() {
    }

    /** The check, where the configuration names a queue host and --local was not given. */
    static Optional<HealthCheck> of(CliContext context) {
        if (context.local()) {
            return Optional.empty();
        }
        Optional<RemoteSettings> host;
        try {
            host = context.remoteQueue();
        } catch (NvidbException e) {
            return Optional.empty(); // the configuration check already says what is wrong with it
        }
        return host.map(h -> check(context, h));
    }

    private static HealthCheck check(CliContext context, RemoteSettings host) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Output captured = new Output(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        captured.setJson(true);
        int code;
        try (CliContext probe = new CliContext(context.env(), captured, new ByteArrayInputStream(new byte[0]), false)) {
            code = new ForwardClient(host, PROBE, Nvidb.commandWords(PROBE), probe).run();
        }
        String where = host.host() + " (remote: in " + host.origin() + ")";
        JsonNode answer = document(out.toString(StandardCharsets.UTF_8));
        if (code == ErrorCode.UNAVAILABLE.exitCode()) {
            String said = answer.path("error").asText(err.toString(StandardCharsets.UTF_8).strip());
            return HealthCheck.fail(NAME, where + ": " + said, "make `ssh " + host.host() + " " + host.nvidb()
                    + " --version` work from here without a prompt, and print the same version as nvidb --version here");
        }
        if (code != 0 && code != ErrorCode.FAILED.exitCode()) {
            return HealthCheck.fail(NAME, where + " answered queue keeper status with exit " + code + ": "
                    + answer.path("error").asText(err.toString(StandardCharsets.UTF_8).strip()),
                    "run nvidb doctor on " + host.host() + " itself");
        }
        if (code != 0) { // keeper status exits 1 while nothing keeps the queue moving
            return HealthCheck.warn(NAME, where + " answers and runs a compatible nvidb, but nothing keeps its queue"
                    + " moving (no daemon, no keeper up there)", "on " + host.host() + ": nvidb queue keeper install"
                    + " --start");
        }
        return HealthCheck.pass(NAME, where + " answers, runs a compatible nvidb, and its queue moves");
    }

    /** The one JSON document the forwarded command printed, or an empty one. */
    private static JsonNode document(String text) {
        try {
            return Json.readTree(text);
        } catch (IOException | RuntimeException e) {
            return MissingNode.getInstance();
        }
    }
}
