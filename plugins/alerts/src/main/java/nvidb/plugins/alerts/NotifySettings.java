package nvidb.plugins.alerts;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the sinks' keys from the {@code queue.notify} map. Each factory's {@code validate} has
 * already checked its key when configuration loaded; the string spellings are
 * accepted here as well because a site may hand the same map to these factories from elsewhere
 * (a plugin test, a quoted YAML value).
 */
final class NotifySettings {

    private NotifySettings() {
    }

    /** Whether delivery is on at all ({@code enabled}, default on). */
    static boolean enabled(Map<String, Object> settings) {
        return flag(settings, "enabled");
    }

    /** Whether delivery is on and the sink's own switch is on; both default to on. */
    static boolean switchedOn(Map<String, Object> settings, String sinkKey) {
        return enabled(settings) && flag(settings, sinkKey);
    }

    /** The {@code command} setting, if one is set and not blank. */
    static Optional<String> command(Map<String, Object> settings) {
        Object value = settings == null ? null : settings.get("command");
        if (value == null) {
            return Optional.empty();
        }
        // A number or boolean is a command spelled without quotes (`command: 5`): run it as written.
        if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
            throw new IllegalArgumentException("queue.notify.command must be a shell command, not " + value);
        }
        String command = String.valueOf(value);
        return command.isBlank() ? Optional.empty() : Optional.of(command);
    }

    private static boolean flag(Map<String, Object> settings, String key) {
        Object value = settings == null ? null : settings.get(key);
        return switch (value) {
            case null -> true;
            case Boolean b -> b;
            case Number n -> n.doubleValue() != 0;
            case String s -> switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "1" -> true;
                case "false", "no", "off", "0", "" -> false;
                default -> throw notABoolean(key, value);
            };
            default -> throw notABoolean(key, value);
        };
    }

    private static IllegalArgumentException notABoolean(String key, Object value) {
        return new IllegalArgumentException("queue.notify." + key + " must be true or false, not '" + value + "'");
    }
}
