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
        String webListen,
        Learning learning,
        java.util.List<String> admins,
        LabSettings lab) {

    public QueueSettings {
        learning = learning == null ? Learning.DEFAULTS : learning;
        lab = lab == null ? LabSettings.DEFAULTS : lab;
        admins = admins == null ? java.util.List.of() : java.util.List.copyOf(admins);
    }

    /**
     * What the queue learns of GPU memory and how it acts on it (issue 33).
     *
     * @param defaultAuto          {@code default_vram: auto}: a job without {@code --vram} is sized as {@code --vram auto}
     * @param overrunMarginPercent {@code overrun_margin}: use beyond the reservation by more than this
     *                             share (and {@link #OVERRUN_FLOOR_MB} at least) is an overrun
     * @param overrunAlert         {@code overrun_alert}: an overrun raises an alert, not only an event
     * @param idleUtilPercent      {@code idle_util}: GPUs at or under this utilisation are idle
     * @param idleAfterSeconds     {@code idle_after}: idle this long raises {@code job_idle}; 0 never
     * @param autoMarginPercent    {@code auto_vram_margin}: added to a family's 95th-percentile peak
     * @param autoFirstMb          {@code auto_vram_first}: a first run's reservation; null for a whole GPU
     * @param oomRetry             {@code oom_retry}: the default of {@code --oom-retry}
     * @param oomSignatures        {@code oom_signatures}: a site's own out-of-memory lines, added to the built-in ones
     */
    public record Learning(boolean defaultAuto, double overrunMarginPercent, boolean overrunAlert, double idleUtilPercent,
                           int idleAfterSeconds, double autoMarginPercent, Long autoFirstMb, int oomRetry,
                           java.util.List<String> oomSignatures) {
        public static final long OVERRUN_FLOOR_MB = 512;
        public static final Learning DEFAULTS = new Learning(false, 10, true, 2, 1800, 15, null, 1, java.util.List.of());

        public Learning {
            oomSignatures = oomSignatures == null ? java.util.List.of() : java.util.List.copyOf(oomSignatures);
        }

        /** How far beyond {@code reservedMb} measured use may go before it is an overrun. */
        public long overrunAllowanceMb(long reservedMb) {
            return Math.max(OVERRUN_FLOOR_MB, Math.round(reservedMb * overrunMarginPercent / 100.0));
        }
    }

    public static QueueSettings defaults() {
        return new QueueSettings(512, 4, 4, "spread", 0, 3, 180, 25, 60, ".nvidb/jobs", false, "local",
                ".nvidb/lanes", 1, 3, 900, 300, new BackupSettings(false, 24, 7, null), NotifySettings.DEFAULTS, null,
                Learning.DEFAULTS, java.util.List.of(), LabSettings.DEFAULTS);
    }

    public QueueSettings withIncludeLocal(boolean value) {
        return new QueueSettings(headroomMb, maxJobsPerGpu, maxCpuJobsPerNode, placement, defaultVramMb, tickMinInterval,
                lockTtl, probeTimeout, launchTimeout, jobRoot, value, localNodeName, laneSpoolRoot, laneLookahead,
                lanePollInterval, laneIdleExit, burstAfter, backup, notifySettings, webListen, learning, admins, lab);
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
