import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The warm paths of bench/mcp.sh, JDK only (run in source-file mode):
 *
 *   java McpBench.java stdio N NVIDB [ARGS...]   N sequential submit tool calls to `NVIDB mcp`
 *                                                (one client, one call in flight): prints the
 *                                                round trips' p50, p90, p99 and max in ms
 *   java McpBench.java http URL TOKEN CLIENTS SECONDS
 *                                                CLIENTS threads POSTing /api/v1/jobs for SECONDS:
 *                                                prints submits/s, the acknowledged count and the
 *                                                latency p50/p99; the acknowledged ids go to stdout's
 *                                                last line for the caller to check against the database
 */
public final class McpBench {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    public static void main(String[] args) throws Exception {
        if (args[0].equals("stdio")) {
            stdio(Integer.parseInt(args[1]), List.of(args).subList(2, args.length));
        } else {
            http(URI.create(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        }
    }

    static void stdio(int n, List<String> command) throws Exception {
        List<String> argv = new ArrayList<>(command);
        argv.add("mcp");
        Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
        await(out, 0);
        send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        int warm = Math.min(200, n);
        List<Double> ms = new ArrayList<>();
        for (int i = 1; i <= warm + n; i++) {
            long t0 = System.nanoTime();
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"submit\","
                    + "\"arguments\":{\"gpus\":0,\"no_tick\":true,\"note\":\"bench\",\"command\":[\"true\"]}}}");
            String answer = await(out, i);
            if (answer.contains("\"isError\":true")) {
                throw new AssertionError("submit failed: " + answer);
            }
            if (i > warm) {
                ms.add((System.nanoTime() - t0) / 1e6);
            }
        }
        in.close();
        p.waitFor();
        Collections.sort(ms);
        System.out.printf("stdio submit round trip, %d calls after %d warm-up: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms,"
                + " max %.2f ms%n", n, warm, q(ms, 0.50), q(ms, 0.90), q(ms, 0.99), ms.getLast());
    }

    static void http(URI base, String token, int clients, int seconds) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI jobs = base.resolve("/api/v1/jobs");
        String body = "{\"gpus\":0,\"no_tick\":true,\"note\":\"bench\",\"command\":[\"true\"]}";
        ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Double> ms = new ConcurrentLinkedQueue<>();
        AtomicLong failed = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofPlatform().start(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(jobs)
                                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 201) {
                            Matcher m = Pattern.compile("\"job\"\\s*:\\s*\\{\\s*\"id\"\\s*:\\s*(\\d+)").matcher(r.body());
                            if (m.find()) {
                                ids.add(Long.parseLong(m.group(1)));
                            }
                            ms.add((System.nanoTime() - t0) / 1e6);
                        } else {
                            failed.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        List<Double> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        System.out.printf("POST /api/v1/jobs, %d clients for %d s: %d acknowledged (%.0f submits/s), %d failed;"
                + " latency p50 %.1f ms, p99 %.1f ms%n", clients, seconds, ids.size(), ids.size() / (double) seconds,
                failed.get(), q(sorted, 0.5), q(sorted, 0.99));
        System.out.println("ids " + ids.size() + " " + ids.stream().mapToLong(Long::longValue).max().orElse(0));
    }

    static double q(List<Double> sorted, double p) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
    }

    static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The line answering request {@code id} (notifications skipped). */
    static String await(BufferedReader out, int id) throws Exception {
        String line;
        while ((line = out.readLine()) != null) {
            if (!line.contains("\"method\"")) {
                Matcher m = ID.matcher(line);
                if (m.find() && Integer.parseInt(m.group(1)) == id) {
                    return line;
                }
            }
        }
        throw new AssertionError("the server ended before answering " + id);
    }
}
