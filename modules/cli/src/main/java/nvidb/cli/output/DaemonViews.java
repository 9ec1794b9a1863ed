package nvidb.cli.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import nvidb.core.api.Daemon;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Keeper;
import nvidb.core.api.Times;

/** The daemon's and the keeper's JSON: a pass, the registered daemon, the keeper's state. */
public final class DaemonViews {
    private DaemonViews() {
    }

    /**
     * One daemon pass: the reference's {@code {tick, notified, backup, backup_error}} (alerts
     * delivered in the pass; the periodic backup it took, or null; why that failed, or null), and
     * {@code at}, {@code woken_by}, {@code duration_ms}.
     */
    public static ObjectNode pass(Daemon.Pass p) {
        ObjectNode o = Output.object();
        o.put("at", Times.iso(p.at()));
        o.put("woken_by", p.wokenBy().label());
        o.put("duration_ms", p.durationMs());
        o.set("tick", Views.tick(p.tick()));
        o.put("notified", p.tick().notified());
        o.set("backup", p.backup() == null ? null : BackupViews.backup(p.backup()));
        o.put("backup_error", p.backupError());
        return o;
    }

    /** {@code {pid, host, started_at, last_pass_at}}, or null when no daemon serves the database. */
    public static ObjectNode daemon(Optional<DaemonInfo> daemon) {
        if (daemon.isEmpty()) {
            return null;
        }
        DaemonInfo d = daemon.get();
        ObjectNode o = Output.object();
        o.put("pid", d.pid());
        o.put("host", d.host());
        o.put("started_at", Times.iso(d.startedAt()));
        o.put("last_pass_at", Times.iso(d.lastPassAt()));
        return o;
    }

    /**
     * {@code {installed, kind, up, pid, script, unit, log}}, with the reference's names of two of
     * them beside: {@code running} (= up) and {@code manager} (= kind: shell or systemd).
     */
    public static ObjectNode keeper(Keeper.State k) {
        ObjectNode o = Output.object();
        o.put("installed", k.installed());
        o.put("running", k.up());
        o.put("manager", k.kind());
        o.put("kind", k.kind());
        o.put("up", k.up());
        o.put("pid", k.pid());
        o.put("script", k.script() == null ? null : k.script().toString());
        o.put("unit", k.unit() == null ? null : k.unit().toString());
        o.put("log", k.log() == null ? null : k.log().toString());
        return o;
    }

    /** The keeper in a sentence: {@code keeper up (shell, pid 812)}, {@code keeper DOWN (systemd)}, {@code no keeper installed}. */
    public static String keeperLine(Keeper.State k) {
        if (!k.installed()) {
            return "no keeper installed";
        }
        return "keeper " + (k.up() ? "up" : "DOWN") + " (" + k.kind() + (k.pid() == null ? "" : ", pid " + k.pid()) + ")";
    }
}
