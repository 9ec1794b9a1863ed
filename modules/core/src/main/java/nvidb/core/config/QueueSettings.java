package nvidb.core.config;

import java.util.Map;

/**
 * The {@code queue:} block with every default of {@code reference-cli.md} §5.3, and
 * {@code burst_after}: seconds a pool job no workstation can take waits before it overflows to a
 * batch node ({@code burst: true}); 0 sends it at once.
 */
public record QueueSettings(
        long headroomMb,
        int maxJobsPerGpu,
        int maxCpuJobsPerNode,
        String placement,
        long defaultVramMb,
        double tickMinInterval,
        int lockTtl,
        int probeTimeout,
        int launchTimeout,
        String jobRoot,
        boolean includeLocal,
        String localNodeName,
        String laneSpoolRoot,
        int laneLookahead,
        double lanePollInterval,
        int laneIdleExit,
        int burstAfter,
        BackupSettings backup,
        Map<String, Object> notifySettings,
        String webListen) {

    public static QueueSettings defaults() {
        return new QueueSettings(512, 4, 4, "spread", 0, 3, 180, 25, 60, ".nvidb/jobs", false, "local",
                ".nvidb/lanes", 1, 3, 900, 300, new BackupSettings(false, 24, 7, null), NotifySettings.DEFAULTS, null);
    }

    public QueueSettings withIncludeLocal(boolean value) {
        return new QueueSettings(headroomMb, maxJobsPerGpu, maxCpuJobsPerNode, placement, defaultVramMb, tickMinInterval,
                lockTtl, probeTimeout, launchTimeout, jobRoot, value, localNodeName, laneSpoolRoot, laneLookahead,
                lanePollInterval, laneIdleExit, burstAfter, backup, notifySettings, webListen);
    }

    /** The scheduler lease must outlive every single remote call of a pass, retries included. */
    public int effectiveLockTtl() {
        return Math.max(Math.max(60, lockTtl), Math.max(2 * probeTimeout + 30, 2 * launchTimeout + 60));
    }

    public record BackupSettings(boolean enabled, double intervalHours, int keep, String directory) {
    }

    /**
     * Defaults of core's keys of {@code queue.notify}. The map also holds every other key as
     * written, for the alert sink plugins: each reads, checks and defaults its own.
     */
    public static final class NotifySettings {
        public static final Map<String, Object> DEFAULTS = Map.of("enabled", true, "min_severity", "warning");

        private NotifySettings() {
        }
    }
}
