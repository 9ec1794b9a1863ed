package nvidb.cli.output;

import nvidb.core.api.Keeper;

/** The keeper in a sentence, for people. */
public final class DaemonViews {
    private DaemonViews() {
    }

    /** The keeper in a sentence: {@code keeper up (shell, pid 812)}, {@code keeper DOWN (systemd)}, {@code no keeper installed}. */
    public static String keeperLine(Keeper.State k) {
        if (!k.installed()) {
            return "no keeper installed";
        }
        return "keeper " + (k.up() ? "up" : "DOWN") + " (" + k.kind() + (k.pid() == null ? "" : ", pid " + k.pid()) + ")";
    }
}
