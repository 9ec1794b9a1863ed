package nvidb.mcp;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.core.api.Caller;
import nvidb.core.api.Event;
import nvidb.core.api.Json;
import nvidb.core.api.JobQueries;
import nvidb.core.api.NvidbException;

/**
 * A job as resources: {@code nvidb://jobs/{id}} (what the {@code job} tool answers),
 * {@code nvidb://jobs/{id}/stdout} and {@code …/stderr} (the last lines of its output). A client
 * that subscribes to a job hears when it changes: {@link #watch} reads the event log and tells the
 * server of every job an event names, and the server passes that on to the sessions subscribed.
 */
final class JobResources {
    /** The last lines a log resource holds. */
    static final int LOG_LINES = 1000;
    private static final Pattern URI = Pattern.compile("nvidb://jobs/(\\d+)(/(stdout|stderr))?");

    private JobResources() {
    }

    static List<McpServerFeatures.SyncResourceTemplateSpecification> templates(McpService service) {
        return List.of(
                template(service, "nvidb://jobs/{id}", "job", "A job in full: state, exit code, node, note, status line,"
                        + " result and events (subscribe to hear when it changes).", "application/json"),
                template(service, "nvidb://jobs/{id}/stdout", "job-stdout", "The last " + LOG_LINES
                        + " lines of a job's stdout.", "text/plain"),
                template(service, "nvidb://jobs/{id}/stderr", "job-stderr", "The last " + LOG_LINES
                        + " lines of a job's stderr.", "text/plain"));
    }

    private static McpServerFeatures.SyncResourceTemplateSpecification template(McpService service, String uri,
                                                                                String name, String description,
                                                                                String mime) {
        McpSchema.ResourceTemplate t = new McpSchema.ResourceTemplate(uri, name, null, description, mime, null);
        return new McpServerFeatures.SyncResourceTemplateSpecification(t, (exchange, request) -> read(service,
                service.caller(exchange), request.uri()));
    }

    static McpSchema.ReadResourceResult read(McpService service, Caller caller, String uri) {
        Matcher m = URI.matcher(uri == null ? "" : uri);
        if (!m.matches()) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message("no such resource: " + uri + " (nvidb://jobs/ID, nvidb://jobs/ID/stdout or /stderr)").build();
        }
        long id = Long.parseLong(m.group(1));
        String stream = m.group(3);
        try {
            String text = service.withApplication(app -> stream == null ? Json.write(app.job(caller, id, null))
                    : app.logs(caller, id, stream.equals("stderr"), LOG_LINES));
            return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri,
                    stream == null ? "application/json" : "text/plain", text)));
        } catch (NvidbException e) {
            throw McpError.builder(e.code() == nvidb.core.api.ErrorCode.NOT_FOUND ? McpSchema.ErrorCodes.RESOURCE_NOT_FOUND
                    : McpSchema.ErrorCodes.INTERNAL_ERROR).message(e.code().label() + ": " + e.getMessage()).build();
        }
    }

    /**
     * Until closed, reads the events after the newest one now every {@code every}, and tells the
     * server of each job they name (a state change, a status line, a result). Reads only: the
     * queue moves on by its daemon, or by the passes calls make.
     */
    static AutoCloseable watch(McpService service, McpSyncServer server, Duration every) {
        Caller caller = Caller.of(Caller.FrontEnd.MCP, "mcp-watch");
        long[] since = {service.withApplication(app -> app.eventPage(caller, null, null, 1).lastId())};
        Thread t = Thread.ofPlatform().daemon().name("nvidb-mcp-watch").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(every);
                    JobQueries.EventPage page = service.withApplication(app -> app.eventPage(caller, since[0], null, 500));
                    page.events().stream().map(Event::jobId).filter(java.util.Objects::nonNull).distinct()
                            .forEach(id -> server.notifyResourcesUpdated(
                                    new McpSchema.ResourcesUpdatedNotification("nvidb://jobs/" + id)));
                    since[0] = Math.max(since[0], page.lastId());
                } catch (InterruptedException | NvidbException e) {
                    if (e instanceof InterruptedException) {
                        return;
                    }
                } catch (RuntimeException e) {
                    // a notification to a session that just closed: the next round tries again
                }
            }
        });
        return t::interrupt;
    }
}
