package nvidb.core.node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The one round trip a pass makes to each node: its kernel and home, the process table, the
 * probe plugin's GPU section, and the state of every job directory the pass asks about. Each
 * section starts with a marker carrying a random nonce, so no job output can forge one.
 */
public final class NodeProbeScript {
    private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

    private final String marker;

    public NodeProbeScript() {
        this("@@nvidb-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    /** A script with a known marker, for replaying a recorded answer (tests, benchmarks). */
    public NodeProbeScript(String marker) {
        this.marker = marker;
    }

    /** A job directory to look at. */
    public record JobDir(long jobId, String runDir) {
    }

    /** The probe's round trip ({@code probe.sh}): {@code gpuFragment} is the probe plugin's GPU section. */
    public String script(String gpuFragment, List<JobDir> jobs) {
        return script(gpuFragment, jobs, List.of());
    }

    /**
     * As {@link #script(String, List)}, also looking for {@code oomSignatures} (plain text, none
     * blank) in the end of each failed job's stderr.
     */
    public String script(String gpuFragment, List<JobDir> jobs, List<String> oomSignatures) {
        List<String> args = new ArrayList<>();
        for (JobDir j : jobs) {
            args.add(String.valueOf(j.jobId()));
            args.add(j.runDir());
        }
        NodeShell shell = new NodeShell().set("m", marker);
        if (!oomSignatures.isEmpty()) {
            shell.set("nvidb_oom", String.join("\n", oomSignatures));
        }
        return shell.function("nvidb_gpu", gpuFragment).args(args).withLib("probe.sh");
    }

    /** Splits what the script printed into a report; the GPU section is left to the probe plugin. */
    public NodeReport parse(String output) {
        Map<String, StringBuilder> sections = new LinkedHashMap<>();
        StringBuilder current = null;
        String prefix = marker + " ";
        for (String line : output.split("\n", -1)) {
            if (line.startsWith(prefix)) {
                String name = line.substring(prefix.length()).strip();
                current = new StringBuilder();
                sections.put(name, current);
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        if (!sections.containsKey("end")) {
            throw new IllegalStateException("the node's answer was cut short (no end marker)");
        }
        Map<String, String> node = keyValues(text(sections, "node"));
        Map<Integer, NodeReport.ProcessRow> ps = new HashMap<>();
        for (String line : text(sections, "ps").split("\n")) {
            String[] parts = WHITESPACE.split(line.strip(), 4);
            if (parts.length >= 3) {
                try {
                    int pid = Integer.parseInt(parts[0]);
                    ps.put(pid, new NodeReport.ProcessRow(pid, Integer.parseInt(parts[1]), parts[2],
                            parts.length > 3 ? parts[3] : ""));
                } catch (NumberFormatException ignored) {
                    // a header or a garbled line: not a process
                }
            }
        }
        Map<Long, NodeReport.JobDirState> jobs = new LinkedHashMap<>();
        for (Map.Entry<String, StringBuilder> e : sections.entrySet()) {
            if (!e.getKey().startsWith("job ")) {
                continue;
            }
            long id = Long.parseLong(e.getKey().substring(4).strip());
            Map<String, String> kv = keyValues(e.getValue().toString());
            String[] exit = WHITESPACE.split(kv.getOrDefault("exit", "").strip());
            Integer rc = exit.length >= 1 ? intOrNull(exit[0]) : null;
            Long finished = exit.length >= 2 ? longOrNull(exit[1]) : null;
            String status = stripOne(sections.get("status " + id));
            jobs.put(id, new NodeReport.JobDirState(id, intOrNull(kv.get("pid")), intOrNull(kv.get("pgid")),
                    "1".equals(kv.get("alive")), rc, finished, longOrNull(kv.get("started")),
                    "1".equals(kv.get("session")), status == null ? null : status.strip(),
                    stripOne(sections.get("result " + id)), stripOne(sections.get("tail " + id)),
                    longOrNull(kv.get("timed_out")), stripOne(sections.get("oom " + id))));
        }
        return new NodeReport(node.getOrDefault("kernel", ""), node.getOrDefault("home", ""), ps,
                text(sections, "gpu"), jobs);
    }

    private static String text(Map<String, StringBuilder> sections, String name) {
        StringBuilder sb = sections.get(name);
        return sb == null ? "" : sb.toString();
    }

    /** Section text without the newline the script added after content that may lack one. */
    private static String stripOne(StringBuilder sb) {
        if (sb == null) {
            return null;
        }
        String s = sb.toString();
        if (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    private static Map<String, String> keyValues(String text) {
        Map<String, String> out = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return out;
    }

    static Integer intOrNull(String s) {
        try {
            return s == null || s.isBlank() ? null : Integer.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Long longOrNull(String s) {
        try {
            return s == null || s.isBlank() ? null : Long.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

}
