package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's {@code user} is the OS account that submitted it, read from the OS by the process's uid:
 * no variable ({@code USER}, {@code LOGNAME}, {@code NVIDB_SUBMITTER}), option ({@code --submitter})
 * or JVM property ({@code -Duser.name} through {@code JAVA_TOOL_OPTIONS}) changes it. The free
 * {@code submitter} label stays what the client set.
 */
class OsAccountTest {
    @TempDir
    Path tmp;

    private static String idUn() throws Exception {
        Process p = new ProcessBuilder("id", "-un").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }

    @Test
    void theAccountIsTheOssWhateverTheEnvironmentAndOptionsSay() throws Exception {
        String real = idUn();
        Cli cli = new Cli(tmp).env("USER", "mallory").env("LOGNAME", "mallory").env("NVIDB_SUBMITTER", "mallory@nowhere")
                .env("JAVA_TOOL_OPTIONS", "-Duser.name=mallory");
        JsonNode job = cli.json("job", "submit", "--gpus", "0", "--no-tick", "--submitter", "agent-7", "--", "true")
                .path("job");
        assertEquals(real, job.path("user").asText(), job.toString());
        assertEquals("agent-7", job.path("submitter").asText());
        JsonNode submitted = cli.json("queue", "events", "--job", job.path("id").asText(), "--no-tick").path("events").path(0);
        assertEquals(real, submitted.path("by").path("account").asText(), submitted.toString());
        String shown = cli.run("job", "show", job.path("id").asText(), "--no-tick").out();
        assertEquals(true, shown.contains("agent-7   (OS account " + real + ")"), shown);
    }
}
