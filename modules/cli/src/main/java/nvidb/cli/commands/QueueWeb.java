package nvidb.cli.commands;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import nvidb.cli.context.Interrupted;
import nvidb.cli.context.StopSignals;
import nvidb.core.api.NvidbException;
import nvidb.web.Web;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue web}: the queue in a browser, until Ctrl-C or SIGTERM. */
@Command(name = "web", mixinStandardHelpOptions = true, description = {
    "The queue in a browser, its HTTP API and Prometheus metrics, until Ctrl-C or SIGTERM.",
    "Pages: overview (alerts, node cards with GPU memory bars, jobs in dispatch order), a job with its live log tail,",
    "lanes, history plots; live without reloading. The API (/api/v1/...) prints the documents of the CLI's --json;",
    "/metrics is Prometheus text.",
    "Prints once a link carrying the token ($NVIDB_HOME/web.token, made on first start): actions (cancel, requeue,",
    "priority, ack, drain, resume) need it, and beyond loopback every request does. Makes a pass when due every",
    "3 s, as the TUI does (a running queue daemon makes it instead).",
    "The daemon serves the same pages when queue.web.listen is set. With remote: in queue.yml the server runs on the",
    "queue host, on its loopback, and this command opens an ssh port forward to it on the same port here (Ctrl-C",
    "stops both).",
    "Per-user tokens: queue web token add NAME; a request with one acts as that user."},
    subcommands = QueueWebToken.class)
public final class QueueWeb extends BaseCommand {
    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8765",
            description = "Where to serve (default 127.0.0.1:8765; port 0: any free port). Another address than loopback"
                    + " must be named here, and the token then travels in clear unless a TLS proxy is in front.")
    String listen;

    @Option(names = "--open", description = "Open the link in this machine's browser (xdg-open or open).")
    boolean open;

    @Override
    protected int execute() {
        ctx().open(); // a broken configuration is reported before anything listens
        CountDownLatch stopped = new CountDownLatch(1);
        try (Web.Server server = Web.start(new Web.Options(listen, ctx().home(), true), ctx()::openAccess,
                new CliToolParameters());
             StopSignals signals = StopSignals.install(stopped::countDown)) {
            if (server.exposed()) {
                out().note("warning: serving beyond loopback on " + listen + ": every request needs the token, which"
                        + " travels in clear over HTTP unless a TLS proxy is in front");
            }
            if (json()) {
                java.util.Map<String, String> o = new java.util.LinkedHashMap<>();
                o.put("url", server.url().toString());
                o.put("url_with_token", server.urlWithToken().toString());
                out().startLines();
                out().document(o);
            } else {
                out().line("nvidb queue web: " + server.urlWithToken());
                out().note("Open that link (it carries the token). Ctrl-C stops the server.");
            }
            if (open && !openBrowser(server.urlWithToken().toString())) {
                out().note("--open: neither xdg-open nor open is on PATH; open the link by hand");
            }
            stopped.await();
        } catch (IOException e) {
            throw NvidbException.failed("the web server could not start: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Interrupted();
        }
        return 0;
    }

    /** Opens {@code url} in this machine's browser; false where neither xdg-open nor open is on PATH. */
    public static boolean openBrowser(String url) {
        for (String opener : new String[] {"xdg-open", "open"}) {
            try {
                new ProcessBuilder(opener, url).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                return true;
            } catch (IOException e) {
                // not this one
            }
        }
        return false;
    }
}
