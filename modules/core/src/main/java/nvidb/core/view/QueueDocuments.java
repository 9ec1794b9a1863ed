package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.DaemonInfo;
import nvidb.core.api.Keeper;
import nvidb.core.api.Lease;
import nvidb.core.api.PluginEntry;
import nvidb.core.api.Queue;
import nvidb.core.api.Times;

/** The documents of the {@code queue} commands, and the parts {@code queue status} is made of. */
public final class QueueDocuments {
    private QueueDocuments() {
    }

    /** {@code doctor}: every check, and whether none failed (warnings leave {@code ok} true). */
    public record Doctor(List<Check> checks, boolean ok) {
        public static Doctor of(List<nvidb.core.api.HealthCheck> checks) {
            return new Doctor(checks.stream().map(Check::of).toList(),
                    checks.stream().allMatch(nvidb.core.api.HealthCheck::ok));
        }
    }

    /** One check of {@code doctor}: {@code ok} is false only for {@code level} {@code fail}. */
    public record Check(String name, boolean ok, String level, String detail, String fix) {
        public static Check of(nvidb.core.api.HealthCheck c) {
            return new Check(c.name(), c.ok(), c.level().label(), c.detail(), c.fix());
        }
    }

    /** {@code queue nodes}. */
    public record Nodes(List<NodeView> nodes) {
    }

    /** {@code queue events}: {@code last_id} is what to pass as the next {@code --since}. */
    public record Events(List<EventView> events, long lastId) {
    }

    /** {@code queue alerts}. */
    public record Alerts(List<AlertView.Listed> alerts, long open) {
    }

    /** {@code queue ack}. */
    public record Acked(boolean ok, @JsonInclude(Include.NON_NULL) String error,
                        @JsonInclude(Include.NON_NULL) String code, int acknowledged, List<AckResult> results) {
    }

    public record AckResult(long id, boolean ok, boolean acknowledged, @JsonInclude(Include.NON_NULL) String error,
                            @JsonInclude(Include.NON_NULL) String code) {
    }

    /** The last line of a stream of passes ({@code queue tick --watch}, {@code queue daemon}). */
    public record WatchSummary(boolean summary, int passes, int dispatched, int finished) {
    }

    /** {@code queue drain|resume} ({@code enabled}) and {@code queue ignore|unignore} ({@code ignored}). */
    public record NodeSwitched(boolean ok, String node, @JsonInclude(Include.NON_NULL) Boolean enabled,
                               @JsonInclude(Include.NON_NULL) Boolean ignored) {
    }

    /** {@code plugins}. */
    public record Plugins(List<Plugin> plugins) {
    }

    public record Plugin(String name, String kind, String version, String origin) {
        public static Plugin of(PluginEntry e) {
            return new Plugin(e.name(), e.kind().label(), e.factory().version(), e.origin());
        }
    }

    /** {@code queue lanes}. */
    public record Lanes(List<LaneView.Detail> lanes) {
    }

    /** The scheduler lease while a pass holds it. */
    public record TickLock(String name, String owner, String acquiredAt, String expiresAt) {
        public static TickLock of(Optional<Lease> lease) {
            return lease.map(l -> new TickLock(l.name(), l.owner(), Times.iso(l.acquiredAt()), Times.iso(l.expiresAt())))
                    .orElse(null);
        }
    }

    /** The settings a status reader needs to read the budgets. */
    public record Settings(long headroomMb, int maxJobsPerGpu, String placement) {
        public static Settings of(Queue.Info info) {
            return new Settings(info.headroomMb(), info.maxJobsPerGpu(), info.placement());
        }
    }

    /** The daemon registered for the database; null when none serves it. */
    public record Daemon(long pid, String host, String startedAt, String lastPassAt) {
        public static Daemon of(Optional<DaemonInfo> daemon) {
            return daemon.map(d -> new Daemon(d.pid(), d.host(), Times.iso(d.startedAt()), Times.iso(d.lastPassAt())))
                    .orElse(null);
        }
    }

    /**
     * What keeps the queue moving when no command runs: {@code {installed, kind, up, pid, script,
     * unit, log}}, with the reference's names of two of them beside: {@code running} (= up) and
     * {@code manager} (= kind: shell or systemd).
     */
    public record KeeperState(boolean installed, boolean running, String manager, String kind, boolean up, Long pid,
                              String script, String unit, String log) {
        public static KeeperState of(Keeper.State k) {
            return new KeeperState(k.installed(), k.up(), k.kind(), k.kind(), k.up(), k.pid(), text(k.script()),
                    text(k.unit()), text(k.log()));
        }

        private static String text(Object path) {
            return path == null ? null : path.toString();
        }
    }
}
