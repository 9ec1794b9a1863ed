package nvidb.cli.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.core.api.Daemon;
import nvidb.core.api.Keeper;
import nvidb.core.api.Times;
import nvidb.core.view.TickView;

/** A daemon pass's JSON, and the keeper in a sentence. */
public final class DaemonViews {
    private DaemonViews() {
    }

    /** One daemon pass: {@code {at, woken_by, duration_ms, tick}}. */
    public static ObjectNode pass(Daemon.Pass p) {
        ObjectNode o = Output.object();
        o.put("at", Times.iso(p.at()));
        o.put("woken_by", p.wokenBy().label());
        o.put("duration_ms", p.durationMs());
        o.putPOJO("tick", TickView.of(p.tick())); // through the one writer, as every document's tick
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
