package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config-examples/grafana-dashboard.json} against what {@code GET /metrics} of a running
 * {@code queue web} really exports: every PromQL expression of every panel names only metrics
 * the response holds, and only label values those metrics carry. A dashboard that names a
 * metric nvidb does not export (a typo, a metric renamed or dropped) fails here, not in Grafana.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("../../config-examples/grafana-dashboard.json");

    /** Words of PromQL that are not metric names: aggregations (they may stand before {@code by}), keywords, modifiers. */
    private static final Set<String> KEYWORDS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar", "count",
            "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "and", "or", "unless", "offset", "atan2", "inf", "nan", "start", "end");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    /** {@code by (a, b)} and its kind hold label names, not metrics. */
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|=)\\s*\"([^\"]*)\"");
    /** A value or a plain alternation of values ({@code a|b}): anything more is a pattern not checked. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.:-]+(\\|[A-Za-z0-9_.:-]+)*");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)[^,]*,\\s*(\\w+)\\s*\\)");
    /** Labels Prometheus adds when it scrapes: no exporter writes them. */
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    @TempDir
    Path tmp;
    WebFixture web;

    @BeforeEach
    void setUp() throws Exception {
        web = new WebFixture(tmp).start("127.0.0.1:0", false);
    }

    @AfterEach
    void tearDown() {
        web.close();
    }

    @Test
    void everyMetricTheDashboardQueriesIsOneQueueWebExports() throws Exception {
        web.submit("--no-tick", "--", "sleep 60");
        web.cli.json("queue", "tick");
        HttpResponse<String> response = web.get("/metrics");
        assertEquals(200, response.statusCode(), response.body());
        Map<String, List<Map<String, String>>> exported = exposition(response.body());

        JsonNode dashboard = Cli.JSON.readTree(DASHBOARD.toFile());
        List<String> exprs = new ArrayList<>();
        collectExprs(dashboard.path("panels"), exprs);
        assertTrue(exprs.size() >= 10, "the dashboard's queries: " + exprs);
        for (String expr : exprs) {
            Set<String> names = metricNames(expr);
            assertTrue(!names.isEmpty(), "no metric in: " + expr);
            for (String name : names) {
                assertTrue(exported.containsKey(name), "the dashboard queries " + name + ", which /metrics does not export"
                        + " (in: " + expr + "); exported: " + exported.keySet());
            }
            checkLabelValues(expr, exported);
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            String query = variable.path("query").isObject() ? variable.path("query").path("query").asText()
                    : variable.path("query").asText();
            Matcher m = LABEL_VALUES.matcher(query);
            if (variable.path("type").asText().equals("query")) {
                assertTrue(m.matches(), "a variable's query this test reads: " + query);
                assertTrue(exported.containsKey(m.group(1)), "variable " + variable.path("name") + " reads " + m.group(1));
                assertTrue(TARGET_LABELS.contains(m.group(2))
                        || exported.get(m.group(1)).stream().anyMatch(l -> l.containsKey(m.group(2))), query);
            }
        }
    }

    @Test
    void everyPanelAsksTheDataSourceChosenOnImport() throws Exception {
        JsonNode dashboard = Cli.JSON.readTree(DASHBOARD.toFile());
        assertEquals("DS_PROMETHEUS", dashboard.path("__inputs").path(0).path("name").asText());
        assertEquals("prometheus", dashboard.path("__inputs").path(0).path("pluginId").asText());
        List<JsonNode> sources = dashboard.findValues("datasource");
        assertTrue(sources.size() > 10, sources.toString());
        for (JsonNode ds : sources) {
            assertEquals("${DS_PROMETHEUS}", ds.path("uid").asText(), "a data source fixed to one Grafana: " + ds);
        }
    }

    @Test
    void theNamesReadFromAnExpressionAreItsMetricsOnly() {
        assertEquals(Set.of("a_total", "b_bytes", "c"), metricNames("sum by (state, node) (rate(a_total{kind=\"x y\","
                + " node=~\"$node\"}[$__rate_interval])) / on(node) group_left(gpu) b_bytes unless c > bool 0"));
        assertEquals(Set.of("up"), metricNames("max without (instance) (up offset 5m) or vector(1)"));
        assertEquals(Set.of("x"), metricNames("time() - x and x > 1e3"));
    }

    /** The {@code expr} of every target of every panel, rows' panels too. */
    private static void collectExprs(JsonNode panels, List<String> into) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                into.add(target.path("expr").asText());
            }
            collectExprs(panel.path("panels"), into);
        }
    }

    /**
     * The metric names an expression reads: with strings, label matchers, ranges and grouping
     * labels taken out, each identifier left that is not called (followed by {@code (}) and is not
     * a PromQL keyword.
     */
    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = s.replaceAll("\\{[^}]*}", "{}").replaceAll("\\[[^]]*]", "[]");
        s = GROUPING.matcher(s).replaceAll("$1");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String rest = s.substring(m.end()).stripLeading();
            if (!rest.startsWith("(") && !KEYWORDS.contains(m.group())) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** Each {@code label="v"} or {@code label=~"a|b"} on a metric names values that metric carries. */
    private static void checkLabelValues(String expr, Map<String, List<Map<String, String>>> exported) {
        Matcher selector = SELECTOR.matcher(expr);
        while (selector.find()) {
            List<Map<String, String>> samples = exported.get(selector.group(1));
            Matcher matcher = MATCHER.matcher(selector.group(2));
            while (matcher.find()) {
                String label = matcher.group(1);
                if (TARGET_LABELS.contains(label) || !PLAIN.matcher(matcher.group(3)).matches()) {
                    continue;
                }
                for (String value : matcher.group(3).split("\\|")) {
                    assertTrue(samples.stream().anyMatch(l -> value.equals(l.get(label))), "the dashboard asks for "
                            + selector.group(1) + "{" + label + "=\"" + value + "\"}, which /metrics never exports (in: "
                            + expr + ")");
                }
            }
        }
    }

    /** The exposition text's samples: each metric name with the label sets it was exported with. */
    private static Map<String, List<Map<String, String>>> exposition(String text) {
        Map<String, List<Map<String, String>>> out = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            Map<String, String> labels = new HashMap<>();
            Matcher l = LABEL.matcher(m.group(2) == null ? "" : m.group(2));
            while (l.find()) {
                labels.put(l.group(1), l.group(2));
            }
            out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(labels);
        }
        return out;
    }
}
