package nvidb.plugins.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * A {@code transport: slurm} server entry's own keys (its {@code login:} is core's).
 *
 * @param extraArgs    further {@code sbatch} arguments, each one word
 * @param gpuVramMb    memory of one GPU there in MiB, 0 when not given
 * @param clientTimeoutS the limit of each call of a Slurm client (a dead slurmctld makes them hang)
 * @param slurmConf    the clients' configuration file ({@code SLURM_CONF}) when not the login's default, else null
 */
record SlurmSettings(String partition, String account, String qos, String constraint,
                     List<String> extraArgs, long gpuVramMb, int maxJobs, boolean burst, String gres,
                     int clientTimeoutS, String slurmConf) {
    static final String[] KEYS = {"partition", "account", "qos", "constraint", "extra_args", "gpu_vram",
        "max_jobs", "burst", "gres", "slurm_timeout", "slurm_conf"};

    SlurmSettings {
        extraArgs = List.copyOf(extraArgs);
    }

    /** Checks the entry when configuration loads; errors name the file, line and key. */
    static void validate(ConfigSection s) {
        s.know(KEYS);
        String partition = s.string("partition", null);
        if (partition == null || partition.isBlank()) {
            throw s.error("partition", "is missing: a slurm server needs the partition its jobs go to (partition: gpu)");
        }
        s.string("account", null);
        s.string("qos", null);
        s.string("constraint", null);
        s.string("gres", "gpu");
        s.string("slurm_conf", null);
        s.integer("max_jobs", 0, 0);
        s.integer("slurm_timeout", 20, 1);
        s.bool("burst", false);
        s.value("gpu_vram").ifPresent(v -> {
            if (v.value() != null && sizeMb(v.value()) < 0) {
                throw v.error(s.key("gpu_vram"), "must be a size such as 80G or 40960M, not " + v.describe());
            }
        });
        s.value("extra_args").ifPresent(v -> {
            if (v.value() != null && !(v.value() instanceof String) && !v.isList()) {
                throw v.error(s.key("extra_args"), "must be a list of sbatch arguments such as [--mem=64G], not "
                        + v.describe());
            }
            if (v.isList()) {
                for (ConfigValue item : v.list()) {
                    if (!(item.value() instanceof String)) {
                        throw item.error(s.key("extra_args"), "must list sbatch arguments as text, not " + item.describe());
                    }
                }
            }
        });
    }

    /** The settings from an entry {@link #validate} accepted. */
    static SlurmSettings of(Map<String, Object> o) {
        Object extra = o.get("extra_args");
        List<String> args = new ArrayList<>();
        if (extra instanceof List<?> l) {
            l.forEach(x -> args.add(String.valueOf(x)));
        } else if (extra instanceof String text && !text.isBlank()) {
            args.addAll(List.of(text.strip().split("\\s+")));
        }
        Object vram = o.get("gpu_vram");
        return new SlurmSettings(text(o, "partition", ""), text(o, "account", null),
                text(o, "qos", null), text(o, "constraint", null), args, vram == null ? 0 : Math.max(0, sizeMb(vram)),
                (int) number(o, "max_jobs", 0), Boolean.TRUE.equals(o.get("burst")), text(o, "gres", "gpu"),
                (int) number(o, "slurm_timeout", 20), text(o, "slurm_conf", null));
    }

    private static String text(Map<String, Object> o, String key, String dflt) {
        Object v = o.get(key);
        return v == null || String.valueOf(v).isBlank() ? dflt : String.valueOf(v);
    }

    private static long number(Map<String, Object> o, String key, long dflt) {
        return o.get(key) instanceof Number n ? n.longValue() : dflt;
    }

    /** A size as configuration writes it (80G, 40960M, 1T; a bare number is MiB) in MiB, or -1 when it is none. */
    static long sizeMb(Object value) {
        if (value instanceof Number n) {
            return n.longValue() >= 0 ? n.longValue() : -1;
        }
        java.util.regex.Matcher m = SIZE.matcher(String.valueOf(value).strip());
        if (!m.matches()) {
            return -1;
        }
        double d = Double.parseDouble(m.group(1));
        String unit = m.group(2).toUpperCase(Locale.ROOT);
        return (long) (unit.startsWith("T") ? d * 1024 * 1024 : unit.startsWith("G") ? d * 1024 : d);
    }

    private static final java.util.regex.Pattern SIZE = java.util.regex.Pattern.compile(
            "(\\d+(?:\\.\\d+)?)\\s*([MmGgTt]?(?:i?[Bb])?)");
}
