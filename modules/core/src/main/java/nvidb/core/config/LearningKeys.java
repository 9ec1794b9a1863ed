package nvidb.core.config;

import java.util.List;
import java.util.Set;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sizes;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * The {@code queue:} keys of learned VRAM (issue 33), read and checked in one place: percentages as
 * a number or with {@code %} ({@code 10} and {@code 10%} alike), {@code auto_vram_first} as a size
 * or {@code gpu}, {@code default_vram} as a size or {@code auto}.
 */
final class LearningKeys {
    static final Set<String> KEYS = Set.of("overrun_margin", "overrun_alert", "idle_util", "idle_after",
            "auto_vram_margin", "auto_vram_first", "oom_retry", "oom_signatures");
    static final String AUTO = "auto";

    private LearningKeys() {
    }

    /** Whether {@code default_vram} is {@code auto}. */
    static boolean defaultAuto(ConfigSection q) {
        return q.value("default_vram").map(v -> v.value() instanceof String s && AUTO.equals(s.strip())).orElse(false);
    }

    static QueueSettings.Learning read(ConfigSection q) {
        QueueSettings.Learning d = QueueSettings.Learning.DEFAULTS;
        return new QueueSettings.Learning(
                defaultAuto(q),
                percent(q, "overrun_margin", d.overrunMarginPercent(), 1000),
                q.bool("overrun_alert", d.overrunAlert()),
                percent(q, "idle_util", d.idleUtilPercent(), 100),
                q.integer("idle_after", d.idleAfterSeconds(), 0),
                percent(q, "auto_vram_margin", d.autoMarginPercent(), 1000),
                firstRun(q),
                q.integer("oom_retry", d.oomRetry(), 0),
                signatures(q));
    }

    private static double percent(ConfigSection q, String name, double dflt, double max) {
        ConfigValue v = q.value(name).orElse(null);
        if (v == null || v.value() == null) {
            return dflt;
        }
        Object raw = v.value();
        Double value = null;
        if (raw instanceof Number n) {
            value = n.doubleValue();
        } else if (raw instanceof String s && s.strip().endsWith("%")) {
            try {
                value = Double.parseDouble(s.strip().substring(0, s.strip().length() - 1).strip());
            } catch (NumberFormatException e) {
                value = null;
            }
        }
        if (value == null || value.isNaN() || value < 0 || value > max) {
            throw v.error(q.key(name), "must be a percentage from 0 to " + (int) max + " such as 10 or 10%, not "
                    + v.describe());
        }
        return value;
    }

    /** {@code auto_vram_first}: null for a whole GPU ({@code gpu}, the default), else a size. */
    private static Long firstRun(ConfigSection q) {
        ConfigValue v = q.value("auto_vram_first").orElse(null);
        if (v == null || v.value() == null || (v.value() instanceof String s && s.strip().equals("gpu"))) {
            return null;
        }
        if (v.value() instanceof String s) {
            try {
                long mb = Sizes.parseMb(s);
                if (mb > 0) {
                    return mb;
                }
            } catch (NvidbException e) {
                // said below
            }
        }
        throw v.error(q.key("auto_vram_first"), "must be gpu (a whole GPU) or a size such as 24G, not " + v.describe());
    }

    private static List<String> signatures(ConfigSection q) {
        ConfigValue v = q.value("oom_signatures").orElse(null);
        if (v == null || v.value() == null) {
            return List.of();
        }
        String key = q.key("oom_signatures");
        if (!v.isList()) {
            throw v.error(key, "must be a list of lines to find in a failed job's stderr, not " + v.describe());
        }
        List<String> out = v.list().stream().map(item -> item.string(key, "")).toList();
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).isBlank() || out.get(i).contains("\n")) {
                throw v.list().get(i).error(key, "each signature must be one non-empty line, not " + v.list().get(i).describe());
            }
        }
        return out;
    }
}
