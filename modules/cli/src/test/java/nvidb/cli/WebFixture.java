package nvidb.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.testkit.FakeNvidiaSmi;
import nvidb.web.Web;

/**
 * A queue with one node ({@code alpha}: two GPUs behind a fake nvidia-smi, one holding a process
 * the queue did not start) and the web server over it, in this JVM, on a free loopback port.
 */
final class WebFixture implements AutoCloseable {
    final Cli cli;
    final FakeNvidiaSmi alpha;
    final CliContext owner;
    private final Path tmp;
    Web.Server server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    WebFixture(Path tmp) throws IOException {
        cli = new Cli(tmp).env("NVIDB_SUBMITTER", "tester@web");
        alpha = FakeNvidiaSmi.install("alpha", tmp.resolve("alpha/bin"), tmp.resolve("alpha/state"))
                .gpu(0, "NVIDIA A100 80GB PCIe", 81920).gpu(1, "NVIDIA A100 80GB PCIe", 81920)
                .utilization(0, 37).temperature(0, 61);
        alpha.foreignProcess(424242, 0, 12000, "someone-elses-training");
        this.tmp = tmp;
        queueSettings("");
        owner = new CliContext(cli.environment(), new Output(System.out, System.err));
    }

    /** Writes queue.yml again with {@code extra} (lines of {@code queue:} settings, indented two spaces). */
    WebFixture queueSettings(String extra) throws IOException {
        cli.write(".nvidb/queue.yml", "queue:\n  tick_min_interval: 0.2\n" + extra + "servers:\n  - nickname: alpha\n"
                + "    transport: local\n    nvidia_smi: " + alpha.command() + "\n    job_root: " + tmp.resolve("alpha-jobs") + "\n");
        return this;
    }

    WebFixture start(String listen, boolean ownPasses) throws IOException {
        server = Web.start(new Web.Options(listen, cli.nvidbHome(), ownPasses), owner::openAccess);
        return this;
    }

    /** As {@link #start}, also serving {@code /mcp} and the submit routes, as {@code queue web} does. */
    WebFixture startWithSubmits(String listen) throws IOException {
        server = Web.start(new Web.Options(listen, cli.nvidbHome(), false), owner::openAccess,
                new nvidb.cli.commands.CliToolParameters());
        return this;
    }

    String token() throws IOException {
        return Files.readString(cli.nvidbHome().resolve("web.token")).strip();
    }

    URI uri(String path) {
        return server.url().resolve(path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + bearer).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String bearer, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body, StandardCharsets.UTF_8));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    long submit(String... extra) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("job", "submit", "--gpus", "1",
                "--vram", "4G"));
        args.addAll(java.util.List.of(extra));
        return cli.json(args.toArray(String[]::new)).path("job").path("id").asLong();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        for (var j : cli.json("job", "ls", "--active", "--no-tick").path("jobs")) {
            cli.run("job", "cancel", j.path("id").asText());
        }
        cli.run("queue", "tick");
        owner.close();
    }
}
