package nvidb.core.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import nvidb.core.api.Durations;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sizes;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;

/**
 * The {@code queue:} keys of a lab of several people (issue 34), read and checked in one place:
 * {@code users} (a {@code default:} entry and one per user, each with {@code max_gpus},
 * {@code max_running}, {@code max_pending}, {@code max_vram}, {@code share}; a user's entry takes
 * what it leaves out from {@code default:}), {@code fairshare} and {@code fairshare_half_life}.
 */
final class LabKeys {
    static final Set<String> KEYS = Set.of("users", "fairshare", "fairshare_half_life");
    static final String DEFAULT = "default";
    private static final Set<String> USER_KEYS = Set.of("max_gpus", "max_running", "max_pending", "max_vram", "share");
    /** An OS account name as {@code useradd} takes it by default, plus capitals and dots that some sites use. */
    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,31}");

    private LabKeys() {
    }

    static LabSettings read(ConfigSection q) {
        LabSettings d = LabSettings.DEFAULTS;
        LabSettings.UserPolicy defaults = d.defaults();
        Map<String, LabSettings.UserPolicy> users = new LinkedHashMap<>();
        ConfigValue v = q.value("users").orElse(null);
        if (v != null && v.value() != null) {
            if (!v.isMapping()) {
                throw v.error(q.key("users"), "must be a mapping of user names (and default) to their limits, such as"
                        + " {default: {max_gpus: 4}, alice: {share: 2}}, not " + v.describe());
            }
            ConfigSection all = new ConfigSection(q.key("users"), v);
            if (all.contains(DEFAULT)) {
                defaults = policy(all, DEFAULT, defaults);
            }
            for (String user : all.keys()) {
                if (user.equals(DEFAULT)) {
                    continue;
                }
                if (!ACCOUNT.matcher(user).matches()) {
                    throw all.error(user, "is not an account name: use the OS account's name, such as alice");
                }
                users.put(user, policy(all, user, defaults));
            }
        }
        return new LabSettings(defaults, users, q.bool("fairshare", d.fairshare()), halfLife(q, d.halfLife()));
    }

    private static LabSettings.UserPolicy policy(ConfigSection all, String user, LabSettings.UserPolicy base) {
        ConfigValue v = all.value(user).orElseThrow();
        if (v.value() == null) {
            return base;
        }
        if (!v.isMapping()) {
            throw v.error(all.key(user), "must be a mapping of limits (max_gpus, max_running, max_pending, max_vram,"
                    + " share), not " + v.describe());
        }
        ConfigSection m = new ConfigSection(all.key(user), v);
        m.requireKnownKeys(USER_KEYS);
        return new LabSettings.UserPolicy(
                count(m, "max_gpus", base.maxGpus()),
                count(m, "max_running", base.maxRunning()),
                count(m, "max_pending", base.maxPending()),
                vram(m, base.maxVramMb()),
                share(m, base.share()));
    }

    /** A limit as a whole number ≥ 0 (0: none at all), or {@code none} / null for no limit. */
    private static Integer count(ConfigSection m, String name, Integer dflt) {
        ConfigValue v = m.value(name).orElse(null);
        if (v == null) {
            return dflt;
        }
        if (v.value() == null || (v.value() instanceof String s && s.strip().equals("none"))) {
            return null;
        }
        return m.integer(name, 0, 0);
    }

    private static Long vram(ConfigSection m, Long dflt) {
        ConfigValue v = m.value("max_vram").orElse(null);
        if (v == null) {
            return dflt;
        }
        Object raw = v.value();
        if (raw == null || (raw instanceof String s && s.strip().equals("none"))) {
            return null;
        }
        if (raw instanceof Long l && l >= 0) {
            return l;
        }
        if (raw instanceof String s) {
            try {
                return Sizes.parseMb(s);
            } catch (NvidbException e) {
                // said below
            }
        }
        throw v.error(m.key("max_vram"), "must be a size such as 80G (summed over the user's GPUs) or none, not "
                + v.describe());
    }

    private static double share(ConfigSection m, double dflt) {
        ConfigValue v = m.value("share").orElse(null);
        if (v == null || v.value() == null) {
            return dflt;
        }
        if (v.value() instanceof Number n && n.doubleValue() > 0 && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw v.error(m.key("share"), "must be a weight above 0 such as 1 or 2.5 (default 1), not " + v.describe());
    }

    private static Duration halfLife(ConfigSection q, Duration dflt) {
        ConfigValue v = q.value("fairshare_half_life").orElse(null);
        if (v == null || v.value() == null) {
            return dflt;
        }
        Duration d = null;
        if (v.value() instanceof Number n && n.doubleValue() > 0) {
            d = Duration.ofMillis(Math.round(n.doubleValue() * 1000));
        } else if (v.value() instanceof String s) {
            try {
                d = Durations.parse(s);
            } catch (NvidbException e) {
                d = null;
            }
        }
        if (d == null || d.toSeconds() < 60) {
            throw v.error(q.key("fairshare_half_life"), "must be a span of a minute or more such as 7d, 36h or 2w"
                    + " (a number is seconds), not " + v.describe());
        }
        return d;
    }
}
