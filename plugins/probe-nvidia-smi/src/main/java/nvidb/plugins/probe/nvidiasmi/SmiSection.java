package nvidb.plugins.probe.nvidiasmi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import nvidb.spi.probe.Attribution;
import nvidb.spi.probe.GpuProcess;
import nvidb.spi.probe.GpuReport;
import nvidb.spi.probe.GpuSnapshot;

/**
 * The {@code @@nvidb-gpus} section: the shell fragment that prints it and the parser that reads
 * it back, for both probes of this module ({@code nvidia-smi} and {@code wsl}): they ask the same
 * two questions and differ only in how the answer is attributed.
 *
 * <p>The section printed on the node:
 * <pre>
 * &#64;&#64;nvidb-gpus rc=N          exit status of the GPU query
 * ...its stdout and stderr...
 * &#64;&#64;nvidb-apps rc=N          exit status of the compute-apps query, or rc=skipped when
 * ...its stdout and stderr...   the GPU query failed (no second 10 s wait on a wedged GPU)
 * &#64;&#64;nvidb-gpus-end
 * </pre>
 *
 * <p>The command ({@code nvidia_smi:}) is one word, single-quoted, unless it contains a blank and
 * is not a file on the node: then it is a command line the node's shell reads, so {@code sudo -n
 * nvidia-smi} and {@code '/opt/my tools/nvidia-smi'} both work, and an unquoted path with a blank
 * works as long as it exists. The default {@code nvidia-smi} falls back to WSL's
 * {@code /usr/lib/wsl/lib/nvidia-smi} when it is not on the PATH.
 */
final class SmiSection {

    static final String DEFAULT_COMMAND = "nvidia-smi";
    static final String WSL_COMMAND = "/usr/lib/wsl/lib/nvidia-smi";
    static final int TIMEOUT_SECONDS = 10;
    static final String GPU_QUERY = "--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu,"
            + "utilization.memory,temperature.gpu,power.draw";
    static final String APPS_QUERY = "--query-compute-apps=pid,gpu_uuid,used_memory,process_name";
    static final String FORMAT = "--format=csv,noheader,nounits";

    static final String GPUS_MARK = "@@nvidb-gpus";
    static final String APPS_MARK = "@@nvidb-apps";
    static final String END_MARK = "@@nvidb-gpus-end";

    private static final Pattern MARK = Pattern.compile("(@@nvidb-gpus|@@nvidb-apps) rc=(\\S+)");
    /** A number, possibly with a fraction or the unit that a form without nounits prints. */
    private static final Pattern NUMBER = Pattern.compile("(\\d{1,9})(?:\\.\\d*)?\\s*(?:MiB|%|C)?");
    /** Watts, as {@code power.draw} prints them ({@code 245.67}, or {@code 245.67 W} without nounits). */
    private static final Pattern WATTS = Pattern.compile("(\\d{1,6}(?:\\.\\d*)?)\\s*W?");

    private SmiSection() {
    }

    /**
     * Defines {@code nvidb_smi_run ARGS…}: the configured command with a time limit, read as one
     * word or, when it holds a blank and is no file, as a command line for the node's shell.
     */
    private static String runFunction(String command) {
        String fallback = !command.equals(DEFAULT_COMMAND) ? "" : """
                if ! command -v nvidia-smi >/dev/null 2>&1 && [ -x %s ]; then nvidb_smi_cmd=%s; fi
                """.formatted(WSL_COMMAND, WSL_COMMAND);
        return """
                nvidb_smi_cmd=%s
                %snvidb_smi_line=0
                case $nvidb_smi_cmd in *' '*|*'\t'*) [ -f "$nvidb_smi_cmd" ] || nvidb_smi_line=1 ;; esac
                nvidb_smi_timed() { if command -v timeout >/dev/null 2>&1; then timeout %d "$@"; else "$@"; fi; }
                nvidb_smi_run() {
                  if [ "$nvidb_smi_line" = 1 ]; then eval "nvidb_smi_timed $nvidb_smi_cmd \\"\\$@\\""
                  else nvidb_smi_timed "$nvidb_smi_cmd" "$@"; fi
                }
                """.formatted(quote(command), fallback, TIMEOUT_SECONDS);
    }

    /** The POSIX sh fragment printing the section; it never exits and reads nothing from stdin. */
    static String script(String command) {
        return "# nvidb GPU probe: prints the @@nvidb-gpus section (nvidb_smi_* names are its own)\n"
                + runFunction(command) + """
                nvidb_smi_out=$(nvidb_smi_run %s %s </dev/null 2>&1) && nvidb_smi_rc=0 || nvidb_smi_rc=$?
                echo "%s rc=$nvidb_smi_rc"
                [ -z "$nvidb_smi_out" ] || printf '%%s\\n' "$nvidb_smi_out"
                if [ "$nvidb_smi_rc" = 0 ]; then
                  nvidb_smi_out=$(nvidb_smi_run %s %s </dev/null 2>&1) && nvidb_smi_rc=0 || nvidb_smi_rc=$?
                  echo "%s rc=$nvidb_smi_rc"
                  [ -z "$nvidb_smi_out" ] || printf '%%s\\n' "$nvidb_smi_out"
                else
                  echo "%s rc=skipped"
                fi
                echo "%s"
                """.formatted(GPU_QUERY, FORMAT, GPUS_MARK, APPS_QUERY, FORMAT, APPS_MARK, APPS_MARK, END_MARK);
    }

    /**
     * The lane runner's fragment: {@code INDEX FREE_MIB} per GPU from
     * {@code --query-gpu=index,memory.free}; cells such as {@code [N/A]} (MIG) and a failing tool
     * print nothing, so that card is not measured.
     */
    static String freeMemoryScript(String command) {
        return runFunction(command) + """
                nvidb_smi_run --query-gpu=index,memory.free %s </dev/null 2>/dev/null | awk -F',' '{ i = $1; f = $2; \
                  gsub(/[[:space:]]/, "", i); gsub(/[[:space:]]/, "", f); \
                  if (i ~ /^[0-9]+$/ && f ~ /^[0-9]+([.][0-9]*)?$/) print i, int(f) }'
                """.formatted(FORMAT);
    }

    /**
     * Reads the section. {@link Attribution#BLIND}: every GPU is blind and processes get no memory
     * (the WSL driver's per-process figure is not to be trusted even when printed).
     */
    static GpuReport parse(String output, String command, Attribution attribution) {
        boolean blind = attribution == Attribution.BLIND;
        String[] lines = (output == null ? "" : output).split("\r\n|\r|\n");
        String gpusRc = null;
        String appsRc = null;
        boolean ended = false;
        List<String> gpuLines = new ArrayList<>();
        List<String> appLines = new ArrayList<>();
        List<String> current = null;
        for (String raw : lines) {
            String line = raw.strip();
            Matcher m = line.startsWith("@@") ? MARK.matcher(line) : null;
            if (m != null && m.matches()) {
                if (m.group(1).equals(GPUS_MARK)) {
                    gpusRc = m.group(2);
                    current = gpuLines;
                } else {
                    appsRc = m.group(2);
                    current = appLines;
                }
            } else if (line.equals(END_MARK)) {
                ended = true;
                current = null;
            } else if (current != null && !line.isEmpty()) {
                current.add(line);
            }
        }
        if (gpusRc == null) {
            return GpuReport.failed("the GPU probe printed no " + GPUS_MARK + " section (output cut short?)");
        }
        if (!gpusRc.equals("0")) {
            return GpuReport.failed(failure("nvidia-smi", gpusRc, gpuLines, command));
        }
        if (appsRc == null || !ended) {
            return GpuReport.failed("the GPU probe's output was cut short before " + END_MARK);
        }

        Map<String, List<GpuProcess>> byUuid = new LinkedHashMap<>();
        List<String[]> gpuRows = new ArrayList<>();
        for (String line : gpuLines) {
            // Nine cells as asked; eight from a tool (or a stand-in) that leaves power.draw out: no power then.
            // Read as nine, a line of eight whose name holds a comma puts name text where memory.total goes.
            String[] c = cells(line, 9, 2);
            if (c == null || integer(c[3]) == null && known(c[3]) != null) {
                c = cells(line, 8, 2);
            }
            if (c != null && integer(c[0]) != null) {
                gpuRows.add(c);
                if (known(c[1]) != null) {
                    byUuid.putIfAbsent(c[1], new ArrayList<>());
                }
            }
        }
        String appsError = null;
        if (appsRc.equals("0")) {
            for (String line : appLines) {
                String[] c = cells(line, 4, 3);
                Integer pid = c == null ? null : integer(c[0]);
                List<GpuProcess> list = pid == null ? null : byUuid.get(c[1]);
                if (list != null) {
                    list.add(new GpuProcess(pid, blind ? null : integer(c[2]), known(c[3])));
                }
            }
        } else {
            appsError = failure("nvidia-smi --query-compute-apps", appsRc, appLines, command)
                    + "; GPUs listed without their processes";
        }

        List<GpuSnapshot> gpus = new ArrayList<>();
        for (String[] c : gpuRows) {
            String uuid = known(c[1]);
            gpus.add(new GpuSnapshot(integer(c[0]), uuid, known(c[2]), integer(c[3]), integer(c[4]),
                    integer(c[5]), integer(c[6]), integer(c[7]),
                    attribution,
                    uuid == null ? List.of() : byUuid.get(uuid), c.length > 8 ? watts(c[8]) : null));
        }
        return new GpuReport(gpus, appsError);
    }

    /** Why the tool gave nothing: not found, timed out, or failed with its first line. */
    private static String failure(String what, String rc, List<String> text, String command) {
        String first = text.isEmpty() ? "" : text.getFirst();
        if (first.length() > 240) {
            first = first.substring(0, 240) + "…";
        }
        if (rc.equals("127") || first.contains("command not found") || first.endsWith(": not found")) {
            String where = command.equals(DEFAULT_COMMAND)
                    ? "'nvidia-smi' on the PATH and " + WSL_COMMAND
                    : "'" + command + "'";
            return "nvidia-smi not found on the node (looked for " + where
                    + "); install the NVIDIA driver or set nvidia_smi: in the server entry to its path";
        }
        if (rc.equals("124")) {
            return what + " did not answer within " + TIMEOUT_SECONDS + " s (a wedged GPU or driver?)";
        }
        return what + " failed (exit " + rc + ")" + (first.isEmpty() ? "" : ": " + first);
    }

    /**
     * Splits a CSV line on commas and trims the cells. A line with more cells than {@code want}
     * gives the surplus back to the free-text cell at {@code textAt} (a name with commas).
     * Fewer cells: null.
     */
    private static String[] cells(String line, int want, int textAt) {
        String[] parts = line.split(",", -1);
        if (parts.length < want) {
            return null;
        }
        String[] c = new String[want];
        int extra = parts.length - want;
        for (int i = 0, p = 0; i < want; i++) {
            if (i == textAt) {
                StringBuilder text = new StringBuilder(parts[p++]);
                for (int k = 0; k < extra; k++) {
                    text.append(',').append(parts[p++]);
                }
                c[i] = text.toString().strip();
            } else {
                c[i] = parts[p++].strip();
            }
        }
        return c;
    }

    /** The cell, or null for an empty cell or one of the driver's {@code [N/A]}-like words. */
    private static String known(String cell) {
        return cell.isEmpty() || cell.startsWith("[") && cell.endsWith("]") ? null : cell;
    }

    /** The cell as a whole number (a fraction is dropped), or null when it is not one. */
    private static Integer integer(String cell) {
        if (!cell.isEmpty() && cell.length() <= 9 && cell.chars().allMatch(Character::isDigit)) {
            return Integer.valueOf(cell); // the usual cell: plain digits, no regex needed
        }
        Matcher m = NUMBER.matcher(cell);
        return m.matches() ? Integer.valueOf(m.group(1)) : null;
    }

    /** The cell as watts, or null: {@code [N/A]}, {@code [Not Supported]}, an empty or garbled cell. */
    private static Double watts(String cell) {
        Matcher m = WATTS.matcher(cell);
        return m.matches() ? Double.valueOf(m.group(1)) : null;
    }

    /** One single-quoted POSIX shell word. */
    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
