package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import nvidb.testkit.SitePluginJarBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nvidb plugins}: built-in plugins, and a site plugin jar dropped into $NVIDB_HOME/plugins. */
class PluginsCommandTest {
    @TempDir
    Path tmp;

    private static Map<String, JsonNode> byName(JsonNode listing) {
        Map<String, JsonNode> out = new HashMap<>();
        listing.path("plugins").forEach(p -> out.put(p.path("kind").asText() + ":" + p.path("name").asText(), p));
        return out;
    }

    @Test
    void listsTheBuiltInPlugins() {
        Map<String, JsonNode> plugins = byName(new Cli(tmp).json("plugins"));
        for (String expected : new String[] {"placement:spread", "placement:pack", "alert_sink:log",
                "alert_sink:command", "alert_sink:desktop", "transport:local", "batch_scheduler:slurm"}) {
            assertTrue(plugins.containsKey(expected), expected + " missing from " + plugins.keySet());
            assertEquals("builtin", plugins.get(expected).path("origin").asText());
        }
    }

    @Test
    void aSitePluginDroppedInThePluginFolderIsListedAndUsableAsPlacement() throws Exception {
        Cli cli = new Cli(tmp);
        Path jar = SitePluginJarBuilder.plugin("roundrobin", "1.4.2")
                .roundRobinPlacement("site.rr.RoundRobinFactory", "roundrobin")
                .writeTo(cli.nvidbHome().resolve("plugins/roundrobin.jar"));
        JsonNode p = byName(cli.json("plugins")).get("placement:roundrobin");
        assertEquals("roundrobin", p.path("name").asText());
        assertEquals("placement", p.path("kind").asText());
        assertEquals("1.4.2", p.path("version").asText());
        assertEquals(jar.toAbsolutePath().toString(), p.path("origin").asText());
        // configuration may now name it, which it could not before
        cli.write(".nvidb/queue.yml", "queue:\n  placement: roundrobin\n");
        assertEquals(0, cli.run("job", "ls").exit());
    }

    @Test
    void twoPluginsWithOneNameFailAtStartNamingBoth() throws Exception {
        Cli cli = new Cli(tmp);
        SitePluginJarBuilder.plugin("rr-a", "1.0").roundRobinPlacement("site.a.Factory", "spread")
                .writeTo(cli.nvidbHome().resolve("plugins/a.jar"));
        Cli.Result r = cli.run("plugins", "--json");
        assertEquals(1, r.exit(), r.toString());
        String error = r.json().path("error").asText();
        assertTrue(error.contains("two placement plugins are named 'spread'"), error);
        assertTrue(error.contains("site.a.Factory") && error.contains("SpreadPolicyFactory"), error);
        assertTrue(error.contains("a.jar"), error);
    }
}
