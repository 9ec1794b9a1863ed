package nvidb.cli.forward;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.cli.commands.QueueWeb;
import nvidb.cli.output.Output;
import nvidb.core.api.RemoteSettings;

/**
 * {@code nvidb queue web} on a client with {@code remote:}: the server runs on the queue host,
 * on its loopback and a free port there (someone else may serve 8765 on a shared host), and this
 * machine reaches it through an ssh port forward from the client's {@code --listen} address
 * (127.0.0.1:8765 unless named; port 0 picks a free one here) that this command opens and closes.
 * The host's command is asked for {@code --json}: its one line, which names the host's port, is
 * read here and replaced by this machine's link; {@code --open} opens this machine's browser.
 */
final class WebTunnel implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(20);

    private final RemoteSettings remote;
    private final Output output;
    private final List<String> hostArgs;
    private final String bindHost;
    private final int port;
    private final boolean open;
    private final boolean json;
    private volatile Process ssh;
    private volatile String failure;
    private Runnable stopHost = () -> { };

    private WebTunnel(RemoteSettings remote, Output output, List<String> hostArgs, String bindHost, int port,
                      boolean open, boolean json) {
        this.remote = remote;
        this.output = output;
        this.hostArgs = hostArgs;
        this.bindHost = bindHost;
        this.port = port;
        this.open = open;
        this.json = json;
    }

    /** The tunnel for {@code queue web}; null for any other command. A bad {@code --listen} is the host's to refuse. */
    static WebTunnel of(List<String> words, String[] args, RemoteSettings remote, Output output) {
        if (!words.equals(List.of("queue", "web"))) {
            return null;
        }
        String listen = "127.0.0.1:8765";
        boolean open = false;
        boolean json = false;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--listen") && i + 1 < args.length) {
                listen = args[++i];
            } else if (a.startsWith("--listen=")) {
                listen = a.substring("--listen=".length());
            } else if (a.equals("--open")) {
                open = true;
            } else if (a.equals("--json")) {
                json = true;
            } else {
                rest.add(a);
            }
        }
        int colon = listen.lastIndexOf(':');
        String bindHost = colon > 0 ? listen.substring(0, colon) : "127.0.0.1";
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null; // the host's queue web names what is wrong with it
        }
        if (port == 0) {
            port = freePort(bindHost);
        }
        rest.addAll(List.of("--listen", "127.0.0.1:0", "--json"));
        return new WebTunnel(remote, output, List.copyOf(rest), bindHost, port, open, json);
    }

    /** The command line the host runs: its own loopback, any free port, answering in JSON. */
    List<String> hostArgs() {
        return hostArgs;
    }

    /** How to stop the host's server when the forward cannot be opened. */
    void onFailureStop(Runnable stop) {
        this.stopHost = stop;
    }

    /** Why the forward could not be opened, or null. */
    String failure() {
        return failure;
    }

    /**
     * The host's stdout on its way to {@code out}: the host server's line becomes this machine's
     * link, once the forward carries it; every other line passes unchanged.
     */
    PrintStream watch(PrintStream out) {
        return new PrintStream(new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                line.write(b);
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.UTF_8);
                    line.reset();
                    if (!served(text)) {
                        out.print(text);
                        out.flush();
                    }
                }
            }

            @Override
            public void flush() {
                out.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }

    /** Whether {@code text} was the host server's line, handled here. */
    private boolean served(String text) {
        JsonNode doc;
        try {
            doc = new ObjectMapper().readTree(text);
        } catch (IOException e) {
            return false;
        }
        if (doc == null || !doc.has("url_with_token") || ssh != null) {
            return false;
        }
        String hostLink = doc.path("url_with_token").asText();
        String fragment = hostLink.contains("#") ? hostLink.substring(hostLink.indexOf('#')) : "";
        String host = bindHost.contains(":") && !bindHost.startsWith("[") ? "[" + bindHost + "]" : bindHost;
        String url = "http://" + (host.equals("0.0.0.0") ? "127.0.0.1" : host) + ":" + port + "/";
        String problem = forward(java.net.URI.create(doc.path("url").asText()).getPort());
        if (problem != null) {
            failure = problem;
            stopHost.run();
            return true;
        }
        if (json) {
            Map<String, String> o = new LinkedHashMap<>();
            o.put("url", url);
            o.put("url_with_token", url + fragment);
            o.put("queue_host", remote.host());
            o.put("host_url", doc.path("url").asText());
            output.startLines();
            output.document(o);
        } else {
            output.line("nvidb queue web: " + url + fragment);
            output.note("Served on the queue host " + remote.host() + ", reached here through an ssh port forward."
                    + " Open that link (it carries the token). Ctrl-C stops both.");
        }
        if (open && !QueueWeb.openBrowser(url + fragment)) {
            output.note("--open: neither xdg-open nor open is on PATH; open the link by hand");
        }
        return true;
    }

    /** Starts the forward and waits until it accepts connections; null, or why it could not. */
    private String forward(int hostPort) {
        // Checked first: with the port taken, the readiness probe below would reach the other
        // listener before ssh gives up on its bind.
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(bindHost, port));
        } catch (IOException e) {
            return taken("(" + e.getMessage() + ")");
        }
        List<String> argv = SshCommand.portForward(remote, bindHost, port, hostPort);
        try {
            ssh = new ProcessBuilder(argv).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return "could not start ssh for the port forward to the queue host " + remote.host() + ": " + e.getMessage();
        }
        Instant deadline = Instant.now().plus(READY);
        String connectTo = bindHost.equals("0.0.0.0") ? "127.0.0.1" : bindHost;
        while (Instant.now().isBefore(deadline)) {
            if (!ssh.isAlive()) {
                String said = said(ssh);
                return taken(said.isEmpty() ? "" : "(ssh said: " + said + ")");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(connectTo, port), 500);
                return null;
            } catch (IOException notYet) {
                sleep();
            }
        }
        return "the port forward to the queue host " + remote.host() + " did not open within " + READY.toSeconds() + " s";
    }

    private String taken(String why) {
        return "could not forward " + bindHost + ":" + port + " to the web server on the queue host " + remote.host()
                + (why.isEmpty() ? "" : " " + why) + "; is that port taken here? pick another with --listen HOST:PORT";
    }

    private static String said(Process p) {
        try {
            return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip().replaceAll("\\s*\\n\\s*", " / ");
        } catch (IOException e) {
            return "";
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort(String bindHost) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(bindHost, 0));
            return s.getLocalPort();
        } catch (IOException | RuntimeException e) {
            return 8765;
        }
    }

    /** Closes the forward. */
    @Override
    public void close() {
        Process p = ssh;
        if (p != null) {
            p.destroy();
        }
    }
}
