package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-user web tokens ({@code queue web token add/ls/revoke}) against the web server in this JVM:
 * a request with alice's token is alice's (the job it submits, the refusal of bob's job), carol of
 * queue.admins acts on any job, a revoked token is refused at the next request, {@code /mcp} tool
 * calls are their session's token's user's, and no listing shows a token.
 */
class WebTokensTest {
    @TempDir
    Path tmp;

    private static String token(Cli cli, String user) {
        JsonNode issued = cli.json("queue", "web", "token", "add", user);
        assertEquals(user, issued.path("user").asText(), issued.toString());
        assertTrue(issued.path("id").asLong() > 0, issued.toString());
        String token = issued.path("token").asText();
        assertTrue(token.length() >= 40, issued.toString());
        return token;
    }

    private static long submitted(HttpResponse<String> r) throws Exception {
        assertEquals(201, r.statusCode(), r.body());
        return Cli.JSON.readTree(r.body()).path("job").path("id").asLong();
    }

    private static String submitBody(String name) {
        return "{\"gpus\": 0, \"no_tick\": true, \"name\": \"" + name + "\", \"command\": [\"true\"]}";
    }

    @Test
    void aRequestWithAUsersTokenIsThatUsersAndARevokedTokenIsRefusedAtOnce() throws Exception {
        try (WebFixture web = new WebFixture(tmp)) {
            web.queueSettings("  admins: [carol]\n").startWithSubmits("127.0.0.1:0");
            String alice = token(web.cli, "alice");
            String bob = token(web.cli, "bob");
            String carol = token(web.cli, "carol");

            long hers = submitted(web.post("/api/v1/jobs", alice, submitBody("hers")));
            long hersToo = submitted(web.post("/api/v1/jobs", alice, submitBody("hers-too")));
            long his = submitted(web.post("/api/v1/jobs", bob, submitBody("his")));
            assertEquals("alice", web.cli.json("job", "show", String.valueOf(hers), "--no-tick").path("user").asText());
            assertEquals("bob", web.cli.json("job", "show", String.valueOf(his), "--no-tick").path("user").asText());

            HttpResponse<String> refused = web.post("/api/v1/jobs/" + hers + "/cancel", bob, "");
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("is alice's") && refused.body().contains("you are bob"), refused.body());
            assertEquals("pending", web.cli.json("job", "show", String.valueOf(hers), "--no-tick").path("state").asText());

            assertEquals(200, web.post("/api/v1/jobs/" + hers + "/cancel", alice, "").statusCode());
            HttpResponse<String> admin = web.post("/api/v1/jobs/" + his + "/cancel", carol, "");
            assertEquals(200, admin.statusCode(), admin.body());
            JsonNode events = web.cli.json("queue", "events", "--job", String.valueOf(his), "--no-tick").path("events");
            assertEquals("carol", events.get(events.size() - 1).path("by").path("account").asText(), events.toString());

            // The server's own token (web.token) is still the account that runs it, as with one person.
            HttpResponse<String> own = web.post("/api/v1/jobs", web.token(), submitBody("own"));
            long ownId = submitted(own);
            assertEquals(Cli.JSON.readTree(own.body()).path("job").path("user").asText(),
                    web.cli.json("job", "show", String.valueOf(ownId), "--no-tick").path("user").asText());
            assertFalse(Cli.JSON.readTree(own.body()).path("job").path("user").asText().isEmpty());

            Cli.Result revoked = web.cli.run("queue", "web", "token", "revoke", "alice", "--json");
            assertEquals(0, revoked.exit(), revoked.toString());
            assertEquals(1, revoked.json().path("revoked").size());
            HttpResponse<String> after = web.post("/api/v1/jobs/" + hersToo + "/cancel", alice, "");
            assertEquals(401, after.statusCode(), after.body());
            assertEquals(401, web.post("/api/v1/jobs", alice, submitBody("late")).statusCode());
            assertEquals("pending", web.cli.json("job", "show", String.valueOf(hersToo), "--no-tick").path("state").asText());
            assertEquals(201, web.post("/api/v1/jobs", bob, submitBody("still")).statusCode(), "bob's token still works");
        }
    }

    @Test
    void lsNeverShowsATokenAndBadNamesOrIdsAreSaidSo() throws Exception {
        Cli cli = new Cli(tmp);
        String alice = token(cli, "alice");
        String bob = token(cli, "bob");
        Cli.Result ls = cli.run("queue", "web", "token", "ls", "--json");
        assertEquals(0, ls.exit(), ls.toString());
        JsonNode listed = ls.json();
        assertEquals(2, listed.size());
        assertEquals("alice", listed.get(0).path("user").asText());
        assertTrue(listed.get(0).has("created_at") && listed.get(0).has("last_used_at") && listed.get(0).has("id"), listed.toString());
        assertFalse(listed.get(0).has("token"));
        Cli.Result plain = cli.run("queue", "web", "token", "ls");
        for (String shown : new String[] {ls.out(), plain.out(), plain.err(), ls.err()}) {
            assertFalse(shown.contains(alice) || shown.contains(bob), shown);
        }
        byte[] db = Files.readAllBytes(cli.database());
        assertFalse(new String(db, StandardCharsets.ISO_8859_1).contains(alice), "the database keeps only a hash");

        Cli.Result badName = cli.run("queue", "web", "token", "add", "Alice Smith");
        assertEquals(64, badName.exit(), badName.toString());
        assertTrue(badName.err().contains("named like an account"), badName.toString());
        Cli.Result unknownId = cli.run("queue", "web", "token", "revoke", "999");
        assertEquals(3, unknownId.exit(), unknownId.toString());
        Cli.Result nobody = cli.run("queue", "web", "token", "revoke", "carol");
        assertEquals(3, nobody.exit(), nobody.toString());
        Cli.Result byId = cli.run("queue", "web", "token", "revoke", listed.get(1).path("id").asText(), "--json");
        assertEquals(0, byId.exit(), byId.toString());
        assertEquals("bob", byId.json().path("revoked").get(0).path("user").asText());
        assertEquals(1, cli.json("queue", "web", "token", "ls").size());
    }

    @Test
    void mcpToolCallsAreTheirSessionsTokensUsers() throws Exception {
        try (WebFixture web = new WebFixture(tmp)) {
            web.startWithSubmits("127.0.0.1:0");
            String bob = token(web.cli, "bob");
            String alice = token(web.cli, "alice");
            HttpResponse<String> init = mcp(web, bob, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"agent\",\"version\":\"1\"}}}");
            assertEquals(200, init.statusCode(), init.body());
            String session = init.headers().firstValue("Mcp-Session-Id").orElse(null);
            assertNotNull(session);
            assertEquals(202, mcp(web, bob, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
            String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"submit\",\"arguments\":"
                    + "{\"command\":[\"true\"],\"gpus\":0,\"no_tick\":true,\"name\":\"by-mcp\"}}}";
            HttpResponse<String> wrongUser = mcp(web, alice, session, call);
            assertEquals(403, wrongUser.statusCode(), wrongUser.body());
            assertTrue(wrongUser.body().contains("opened with bob's token"), wrongUser.body());

            HttpResponse<String> called = mcp(web, bob, session, call);
            assertEquals(200, called.statusCode(), called.body());
            JsonNode jobs = web.cli.json("job", "ls", "--no-tick").path("jobs");
            assertEquals(1, jobs.size(), called.body());
            assertEquals("bob", jobs.get(0).path("user").asText(), jobs.toString());
            assertEquals("agent", jobs.get(0).path("submitter").asText());

            web.cli.run("queue", "web", "token", "revoke", "bob");
            assertEquals(401, mcp(web, bob, session, call).statusCode(), "revoked: refused at once");
        }
    }

    private static HttpResponse<String> mcp(WebFixture web, String bearer, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(web.uri("/mcp")).header("Authorization", "Bearer " + bearer)
                .header("Accept", "application/json, text/event-stream").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return web.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
