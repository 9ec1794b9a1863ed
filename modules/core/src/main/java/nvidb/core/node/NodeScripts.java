package nvidb.core.node;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import nvidb.core.model.Job;
import nvidb.core.util.ShellQuote;

/**
 * The POSIX shell scripts nvidb sends to a node. Nothing is installed there: every round trip
 * carries its own script, fed to {@code sh -s}. Every value from a user or the database reaches
 * the shell through {@link ShellQuote} or a quoted here-document, so none can leave its argument.
 */
public final class NodeScripts {
    /** A job is alive only if its pid runs that job's own run.sh: a recycled pid never counts. */
    static final String ALIVE_FUNCTION = """
            nvidb_alive() {
                [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
                ps -o args= -p "$1" 2>/dev/null | grep -qF -- "$2/run.sh"
            }
            """;

    private NodeScripts() {
    }

    /** {@code <root>} as a shell word: absolute roots quoted, relative ones under the node's $HOME. */
    static String rootWord(String jobRoot) {
        String root = jobRoot.endsWith("/") && jobRoot.length() > 1 ? jobRoot.substring(0, jobRoot.length() - 1) : jobRoot;
        if (root.startsWith("/")) {
            return ShellQuote.quote(root);
        }
        if (root.startsWith("~/")) {
            root = root.substring(2);
        }
        return "\"$HOME\"/" + ShellQuote.quote(root);
    }

    /** The run directory's last part: {@code 12} for the first attempt, {@code 12-attempt-3} after. */
    public static String runDirName(long jobId, int attempt) {
        return attempt <= 1 ? String.valueOf(jobId) : jobId + "-attempt-" + attempt;
    }

    /**
     * A run directory as an absolute path, for a node whose {@code $HOME} is {@code home}: what
     * the controller records before it hands a job to a lane runner, so that a job that starts
     * and ends between two passes is still found.
     */
    public static String runDir(String home, String jobRoot, long jobId, int attempt) {
        String root = jobRoot.endsWith("/") && jobRoot.length() > 1 ? jobRoot.substring(0, jobRoot.length() - 1) : jobRoot;
        if (!root.startsWith("/")) {
            String h = home.endsWith("/") ? home.substring(0, home.length() - 1) : home;
            root = h + "/" + (root.startsWith("~/") ? root.substring(2) : root);
        }
        return root + "/" + runDirName(jobId, attempt);
    }

    /** A here-document delimiter that no content contains. */
    private static String delimiter(String... contents) {
        while (true) {
            String d = "NVIDB_EOF_" + UUID.randomUUID().toString().replace("-", "");
            boolean clash = false;
            for (String c : contents) {
                clash |= c.contains(d);
            }
            if (!clash) {
                return d;
            }
        }
    }

    /** What a job needs to start: where, on which GPUs, as which attempt. */
    public record LaunchSpec(Job job, String nodeName, String jobRoot, List<Integer> gpuIds, int attempt) {
    }

    /**
     * The wrapper that runs a job: records its pid, process group and start time, exports the
     * job's environment, runs the command verbatim in the background and waits for it, and on
     * any exit (TERM → 143, INT → 130) writes {@code exit_code} as "rc epoch" atomically.
     */
    public static String runScript(LaunchSpec spec) {
        Job job = spec.job();
        StringBuilder sb = new StringBuilder();
        sb.append("#!/bin/sh\n");
        sb.append("# nvidb queue job ").append(job.id()).append('\n');
        sb.append("NVIDB_JOB_DIR=$(cd \"$(dirname \"$0\")\" && pwd -P)\n");
        sb.append("export NVIDB_JOB_DIR\n");
        sb.append("echo $$ > \"$NVIDB_JOB_DIR/pid.tmp\" && mv -f \"$NVIDB_JOB_DIR/pid.tmp\" \"$NVIDB_JOB_DIR/pid\"\n");
        sb.append("ps -o pgid= -p $$ 2>/dev/null | tr -d ' ' > \"$NVIDB_JOB_DIR/pgid\"\n");
        sb.append("date +%s > \"$NVIDB_JOB_DIR/started\"\n");
        sb.append("nvidb_finish() {\n");
        sb.append("    nvidb_rc=$?\n");
        sb.append("    printf '%s %s\\n' \"$nvidb_rc\" \"$(date +%s)\" > \"$NVIDB_JOB_DIR/exit_code.tmp\"\n");
        sb.append("    mv -f \"$NVIDB_JOB_DIR/exit_code.tmp\" \"$NVIDB_JOB_DIR/exit_code\"\n");
        sb.append("}\n");
        sb.append("trap nvidb_finish EXIT\n");
        sb.append("trap 'exit 143' TERM\n");
        sb.append("trap 'exit 130' INT\n");
        export(sb, "NVIDB_JOB_ID", String.valueOf(job.id()));
        export(sb, "NVIDB_JOB_NAME", job.name());
        export(sb, "NVIDB_NODE", spec.nodeName());
        sb.append("NVIDB_STATUS_FILE=\"$NVIDB_JOB_DIR/status\"\nexport NVIDB_STATUS_FILE\n");
        export(sb, "CUDA_VISIBLE_DEVICES", String.join(",", spec.gpuIds().stream().map(String::valueOf).toList()));
        for (Map.Entry<String, String> e : job.env().entrySet()) {
            if (e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                export(sb, e.getKey(), e.getValue());
            }
        }
        if (job.workdir() != null && !job.workdir().isEmpty()) {
            String wd = ShellQuote.quote(job.workdir());
            sb.append("cd ").append(wd).append(" 2>/dev/null || { echo ")
                    .append(ShellQuote.quote("nvidb: workdir " + job.workdir() + " does not exist on " + spec.nodeName()
                            + " (or is not a directory we may enter)"))
                    .append(" >&2; exit 127; }\n");
        }
        sb.append("sh \"$NVIDB_JOB_DIR/command.sh\" < /dev/null &\n");
        sb.append("nvidb_child=$!\n");
        sb.append("wait \"$nvidb_child\"\n");
        sb.append("exit $?\n");
        return sb.toString();
    }

    private static void export(StringBuilder sb, String key, String value) {
        sb.append(key).append('=').append(ShellQuote.quote(value == null ? "" : value)).append("\nexport ").append(key)
                .append('\n');
    }

    /**
     * One round trip that starts a job detached, or adopts it when its wrapper already runs (a
     * retried launch must not start it twice). Prints {@code NVIDB_DIR=}, {@code NVIDB_PID=},
     * {@code NVIDB_PGID=}, {@code NVIDB_SETSID=} and {@code NVIDB_ADOPTED=1} when adopted.
     */
    public static String launch(LaunchSpec spec) {
        String run = runScript(spec);
        String command = spec.job().command();
        String d = delimiter(run, command);
        StringBuilder sb = new StringBuilder();
        sb.append("umask 077\n");
        sb.append(ALIVE_FUNCTION);
        sb.append("d=").append(rootWord(spec.jobRoot())).append('/')
                .append(ShellQuote.quote(runDirName(spec.job().id(), spec.attempt()))).append('\n');
        sb.append("mkdir -p \"$d\" 2>/dev/null || { echo \"NVIDB_ERROR=cannot create $d\"; exit 1; }\n");
        sb.append("d=$(cd \"$d\" && pwd -P) || exit 1\n");
        sb.append("echo \"NVIDB_DIR=$d\"\n");
        sb.append("if [ -f \"$d/pid\" ] && nvidb_alive \"$(cat \"$d/pid\")\" \"$d\"; then\n");
        sb.append("    echo NVIDB_ADOPTED=1\n");
        sb.append("    echo \"NVIDB_PID=$(cat \"$d/pid\")\"\n");
        sb.append("    echo \"NVIDB_PGID=$(cat \"$d/pgid\" 2>/dev/null)\"\n");
        sb.append("    echo \"NVIDB_SETSID=$(cat \"$d/session\" 2>/dev/null)\"\n");
        sb.append("    exit 0\n");
        sb.append("fi\n");
        sb.append("cat > \"$d/run.sh\" <<'").append(d).append("'\n").append(run).append(run.endsWith("\n") ? "" : "\n")
                .append(d).append('\n');
        sb.append("cat > \"$d/command.sh\" <<'").append(d).append("'\n").append(command)
                .append(command.endsWith("\n") ? "" : "\n").append(d).append('\n');
        sb.append("rm -f \"$d/exit_code\" \"$d/exit_code.tmp\" \"$d/pid\" \"$d/pgid\" \"$d/result.json\"\n");
        sb.append(": > \"$d/stdout.log\"; : > \"$d/stderr.log\"\n");
        sb.append("if command -v setsid >/dev/null 2>&1; then\n");
        sb.append("    echo 1 > \"$d/session\"\n");
        sb.append("    setsid sh \"$d/run.sh\" >> \"$d/stdout.log\" 2>> \"$d/stderr.log\" < /dev/null &\n");
        sb.append("else\n");
        sb.append("    echo 0 > \"$d/session\"\n");
        sb.append("    nohup sh \"$d/run.sh\" >> \"$d/stdout.log\" 2>> \"$d/stderr.log\" < /dev/null &\n");
        sb.append("fi\n");
        sb.append("i=0\n");
        sb.append("while [ ! -s \"$d/pid\" ] && [ $i -lt 100 ]; do sleep 0.05 2>/dev/null || sleep 1; i=$((i+1)); done\n");
        sb.append("[ -s \"$d/pid\" ] || { echo 'NVIDB_ERROR=the job did not start (no pid file after 5 s)'; exit 1; }\n");
        sb.append("echo \"NVIDB_PID=$(cat \"$d/pid\")\"\n");
        sb.append("echo \"NVIDB_PGID=$(cat \"$d/pgid\" 2>/dev/null)\"\n");
        sb.append("echo \"NVIDB_SETSID=$(cat \"$d/session\")\"\n");
        return sb.toString();
    }

    /**
     * Stops a job's process group: TERM now, KILL after {@code graceSeconds} to whatever of the
     * group is left (a child that ignores TERM). Only when the pid still runs this job's run.sh.
     * Prints {@code NVIDB_SIGNALLED=1|0}.
     */
    public static String terminate(String runDir, int pid, Integer pgid, int graceSeconds) {
        StringBuilder sb = new StringBuilder(ALIVE_FUNCTION);
        sb.append("d=").append(ShellQuote.quote(runDir)).append('\n');
        sb.append("p=").append(pid).append('\n');
        sb.append("g=").append(pgid == null ? "" : String.valueOf(pgid)).append('\n');
        sb.append("if nvidb_alive \"$p\" \"$d\"; then\n");
        sb.append("    if [ -n \"$g\" ]; then kill -TERM -\"$g\" 2>/dev/null; fi\n");
        sb.append("    kill -TERM \"$p\" 2>/dev/null\n");
        sb.append("    if [ -z \"$g\" ]; then pkill -TERM -P \"$p\" 2>/dev/null; fi\n");
        sb.append("    ( sleep ").append(graceSeconds).append("; if [ -n \"$g\" ]; then kill -KILL -\"$g\" 2>/dev/null; fi;")
                .append(" if nvidb_alive \"$p\" \"$d\"; then kill -KILL \"$p\" 2>/dev/null; fi ) < /dev/null > /dev/null 2>&1 &\n");
        sb.append("    echo NVIDB_SIGNALLED=1\n");
        sb.append("else\n");
        sb.append("    echo NVIDB_SIGNALLED=0\n");
        sb.append("fi\n");
        return sb.toString();
    }

    /** The last {@code lines} lines of a job's stdout or stderr; a missing file reads as empty. */
    public static String tail(String runDir, String file, int lines) {
        return "tail -n " + lines + " " + ShellQuote.quote(runDir + "/" + file) + " 2>/dev/null || true\n";
    }
}
