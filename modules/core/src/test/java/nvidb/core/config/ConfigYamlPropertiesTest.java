package nvidb.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.NvidbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated config.yml and queue.yml files: the known keys with values of every shape (right,
 * wrong type, out of range, nested where a scalar belongs), unknown keys, and the same text with
 * a character changed, dropped or added (seeded). Every file either loads or is refused with a usage
 * error that names the file; nothing else escapes the loader.
 */
class ConfigYamlPropertiesTest {
    private static final List<String> TOP = List.of("servers", "nodes", "queue", "remote", "sevrers", "queue ");
    private static final List<String> QUEUE = List.of("headroom_mb", "max_jobs_per_gpu", "max_cpu_jobs_per_node",
            "placement", "default_vram", "tick_min_interval", "lock_ttl", "probe_timeout", "launch_timeout",
            "job_root", "include_local", "local_node_name", "lane_spool_root", "lane_lookahead",
            "lane_poll_interval", "lane_idle_exit", "backup", "notify", "remote", "lokc_ttl");
    private static final List<String> SERVER = List.of("nickname", "description", "hostname", "host", "port",
            "username", "user", "auth", "identityfile", "gpus", "gpu_ids", "nvidia_smi", "job_root",
            "host_key_check", "probe", "transport", "proxyjump", "prot");
    private static final List<String> REMOTE = List.of("host", "hostname", "port", "username", "user", "nvidb",
            "nvidb_home", "keeper", "ssh_options", "hots");
    private static final List<String> BACKUP = List.of("enabled", "interval_hours", "keep", "directory", "kep");
    private static final List<String> SCALARS = List.of("0", "1", "-1", "3", "2.5", "-0.5", "1e3", ".inf", "-.inf",
            ".nan", "0x1F", "0o17", "1_000", "99999999999999999999999", "true", "false", "yes", "off", "null", "~",
            "''", "\"\"", "20G", "512M", "1.5T", "-3G", "spread", "pack", "ssh", "local", "nvidia-smi", "wsl", "key",
            "password", "auto", "strict", "accept-new", "ensure", "gpu-box-1", "/tmp/x", "~/jobs", "\"a: b\"",
            "!!binary aGVsbG8=", "!!str 5", "!!int x", "&a 1", "*a", "[]", "{}", "[0, 1]", "[0, -1]", "{a: 1}",
            "\"\\u0000\"", "'\u00e9\u0663'", "warning", "error");

    @TempDir
    Path home;

    @Test
    void everyFileLoadsOrIsRefusedNamingIt() {
        Random random = new Random(24_201L);
        for (int i = 0; i < 3_000; i++) {
            loadsOrIsRefused(random);
        }
    }

    private void loadsOrIsRefused(Random random) {
        String queueYml = mutate(random, document(random));
        String configYml = random.nextInt(3) == 0 ? mutate(random, document(random)) : "";
        write("queue.yml", queueYml);
        write("config.yml", configYml);
        try {
            QueueConfig config = ConfigLoaderTest.LOADER.load(ConfigLoaderTest.paths(home));
            assertTrue(config.settings().maxJobsPerGpu() >= 1 && config.settings().lockTtl() >= 1,
                    () -> "a loaded configuration keeps its limits:\n" + queueYml);
        } catch (NvidbException e) {
            assertEquals(ErrorCode.USAGE, e.code(), () -> e.getMessage() + "\n" + queueYml);
            assertTrue(e.getMessage().contains(home.toString()), () -> "the error names the file: " + e.getMessage()
                    + "\nqueue.yml:\n" + queueYml + "\nconfig.yml:\n" + configYml);
        }
    }

    private void write(String name, String text) {
        try {
            Files.writeString(home.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A YAML document over the known keys (and a few misspelt ones). */
    static String document(Random random) {
        StringBuilder sb = new StringBuilder();
        int keys = random.nextInt(4);
        for (int i = 0; i < keys; i++) {
            String key = pick(random, TOP);
            sb.append(key).append(':');
            switch (key.strip()) {
                case "servers", "nodes" -> servers(random, sb);
                case "queue" -> mapping(random, sb, "  ", QUEUE, 6);
                case "remote" -> mapping(random, sb, "  ", REMOTE, 5);
                default -> sb.append(' ').append(pick(random, SCALARS)).append('\n');
            }
        }
        return sb.toString();
    }

    private static void servers(Random random, StringBuilder sb) {
        if (random.nextInt(6) == 0) {
            sb.append(' ').append(pick(random, SCALARS)).append('\n');
            return;
        }
        sb.append('\n');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            int fields = 1 + random.nextInt(5);
            for (int f = 0; f < fields; f++) {
                sb.append(f == 0 ? "  - " : "    ").append(pick(random, SERVER)).append(": ")
                        .append(pick(random, SCALARS)).append('\n');
            }
        }
    }

    private static void mapping(Random random, StringBuilder sb, String indent, List<String> keys, int most) {
        if (random.nextInt(8) == 0) {
            sb.append(' ').append(pick(random, SCALARS)).append('\n');
            return;
        }
        sb.append('\n');
        int n = random.nextInt(most);
        for (int i = 0; i < n; i++) {
            String key = pick(random, keys);
            sb.append(indent).append(key).append(':');
            if (key.equals("backup") && random.nextBoolean()) {
                mapping(random, sb, indent + "  ", BACKUP, 4);
            } else if (key.equals("notify") && random.nextBoolean()) {
                mapping(random, sb, indent + "  ", List.of("enabled", "log", "desktop", "command", "webhook",
                        "min_severity", "lgo"), 4);
            } else if (key.equals("ssh_options") && random.nextBoolean()) {
                sb.append("\n").append(indent).append("  - ").append(pick(random, SCALARS)).append('\n');
            } else {
                sb.append(' ').append(pick(random, SCALARS)).append('\n');
            }
        }
    }

    /** Mostly the text as it is; else with one character changed, dropped or added. */
    static String mutate(Random random, String text) {
        if (text.isEmpty() || random.nextInt(3) > 0) {
            return text;
        }
        String chars = ":-[]{}#&*!|>'\"% \t\n\u0000\u00ff?,@`";
        int at = random.nextInt(text.length());
        char c = chars.charAt(random.nextInt(chars.length()));
        return switch (random.nextInt(3)) {
            case 0 -> text.substring(0, at) + c + text.substring(at + 1);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            default -> text.substring(0, at) + c + text.substring(at);
        };
    }

    private static String pick(Random random, List<String> values) {
        return values.get(random.nextInt(values.size()));
    }
}
