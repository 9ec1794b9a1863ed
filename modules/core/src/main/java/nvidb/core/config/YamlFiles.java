package nvidb.core.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.api.NvidbException;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.config.ConfigValue;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/** Reads a YAML file into {@link ConfigValue}s that remember their file and line. */
final class YamlFiles {
    /** The largest configuration file read: generous for hundreds of servers. */
    static final long MAX_BYTES = 1024 * 1024;

    private YamlFiles() {
    }

    /** The top-level mapping of {@code file}; an absent or empty file reads as an empty mapping. */
    static ConfigSection readMapping(Path file) {
        if (Files.isDirectory(file)) {
            // Not "no configuration": the settings someone meant to give would be silently missing.
            throw NvidbException.usage("configuration " + file + " is a directory; it should be a YAML file"
                    + " (remove the directory, or move it aside and write the settings into a file of that name)");
        }
        if (!Files.isRegularFile(file)) {
            return ConfigSection.empty("");
        }
        refuseLarge(file);
        Node root;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            // What Yaml.compose does, without the Yaml object: that one builds the constructors and
            // representers too, and their TypeDescription sets up java.util.logging, whose
            // LogManager searches every module for a logger finder (~10 ms of each command that
            // reads a queue.yml; bench/class-loads.sh).
            root = new Composer(new ParserImpl(new StreamReader(reader), options), new Resolver(), options)
                    .getSingleNode();
        } catch (MarkedYAMLException e) {
            throw NvidbException.usage(brokenYaml(file, e));
        } catch (YAMLException e) {
            if (e.getCause() instanceof CharacterCodingException) {
                throw notText(file);
            }
            throw NvidbException.usage("configuration " + file + " is not valid YAML: " + e.getMessage());
        } catch (CharacterCodingException e) {
            throw notText(file);
        } catch (IOException e) {
            throw NvidbException.usage("could not read configuration " + file + ": " + e.getMessage());
        }
        if (root == null) {
            return ConfigSection.empty("");
        }
        ConfigValue value = convert(root, file.toString(), "");
        if (value.value() == null) {
            return ConfigSection.empty("");
        }
        if (!value.isMapping()) {
            throw NvidbException.usage("configuration " + file + ", line " + value.line()
                    + ": the file must hold a mapping of keys (such as queue: and servers:), not a "
                    + value.describe());
        }
        return new ConfigSection("", value);
    }

    private static NvidbException notText(Path file) {
        return NvidbException.usage("configuration " + file + " is not UTF-8 text (a binary file?); it should be"
                + " YAML such as config-examples/queue.yml");
    }

    /**
     * Every command reads the configuration: a file of megabytes (a log written to the wrong
     * name) would cost each one its parse, and is no configuration anyone wrote.
     */
    private static void refuseLarge(Path file) {
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw NvidbException.usage(String.format(java.util.Locale.ROOT,
                        "configuration %s is larger than %d KiB (%.1f MiB); a configuration is a few KiB of YAML"
                                + " (is it the right file?)", file, MAX_BYTES / 1024, size / 1048576.0));
            }
        } catch (IOException e) {
            throw NvidbException.usage("could not read configuration " + file + ": " + e.getMessage());
        }
    }

    /**
     * Where the YAML broke, with the text of that line so the key near the mistake is named. An
     * unclosed bracket is only noticed at the end of the file; the line that opened it is named then.
     */
    private static String brokenYaml(Path file, MarkedYAMLException e) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException unreadable) {
            lines = List.of();
        }
        Mark at = e.getProblemMark();
        if ((at == null || lineText(lines, at.getLine()).isBlank()) && e.getContextMark() != null) {
            at = e.getContextMark();
        }
        StringBuilder sb = new StringBuilder("configuration ").append(file);
        if (at != null) {
            sb.append(", line ").append(at.getLine() + 1);
        }
        sb.append(" is not valid YAML");
        String text = at == null ? "" : lineText(lines, at.getLine()).strip();
        if (!text.isEmpty()) {
            sb.append(" at '").append(text).append('\'');
        }
        sb.append(": ").append(e.getProblem());
        if (e.getContext() != null) {
            sb.append(" (").append(e.getContext()).append(')');
        }
        return sb.toString();
    }

    private static String lineText(List<String> lines, int index) {
        return index >= 0 && index < lines.size() ? lines.get(index) : "";
    }

    /** @param path the dotted key of {@code node} ({@code queue.notify}, {@code servers[0]}), for errors */
    private static ConfigValue convert(Node node, String file, String path) {
        int line = node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
        // instanceof, not a switch over types: each such switch bootstraps a class at run time on
        // its first use (the AOT cache cannot hold it), and every command reads its configuration.
        if (node instanceof MappingNode m) {
            Map<String, ConfigValue> out = new LinkedHashMap<>();
            Map<String, Integer> keyLines = new java.util.HashMap<>();
            for (NodeTuple t : m.getValue()) {
                ConfigValue key = convert(t.getKeyNode(), file, path);
                String name = String.valueOf(key.value());
                String keyPath = path.isEmpty() ? name : path + "." + name;
                Integer earlier = keyLines.putIfAbsent(name, key.line());
                if (earlier != null) {
                    // compose() does not apply LoaderOptions.setAllowDuplicateKeys: check here.
                    throw NvidbException.usage("configuration " + file + ", line " + key.line() + ": " + keyPath
                            + " is set twice in the same block (first on line " + earlier
                            + "); keep one");
                }
                out.put(name, atKeyLine(convert(t.getValueNode(), file, keyPath), key.line()));
            }
            return new ConfigValue(out, file, line);
        }
        if (node instanceof SequenceNode s) {
            List<ConfigValue> out = new ArrayList<>();
            for (Node child : s.getValue()) {
                out.add(convert(child, file, path + "[" + out.size() + "]"));
            }
            return new ConfigValue(out, file, line);
        }
        if (node instanceof ScalarNode s) {
            return new ConfigValue(scalar(s), file, line);
        }
        return new ConfigValue(null, file, line);
    }

    /**
     * A block mapping or list starts on the line after its key; an error about the whole block
     * ({@code sevrers: is not a known setting}) names the key's line, where the reader looks.
     */
    private static ConfigValue atKeyLine(ConfigValue value, int keyLine) {
        boolean block = value.isMapping() || value.isList();
        return block && value.line() > keyLine ? new ConfigValue(value.value(), value.file(), keyLine) : value;
    }

    private static Object scalar(ScalarNode s) {
        String text = s.getValue();
        Tag tag = s.getTag();
        try {
            if (Tag.NULL.equals(tag)) {
                return null;
            }
            if (Tag.BOOL.equals(tag)) {
                String t = text.toLowerCase(java.util.Locale.ROOT);
                return t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y");
            }
            if (Tag.INT.equals(tag)) {
                return Long.parseLong(text.replace("_", ""));
            }
            if (Tag.FLOAT.equals(tag)) {
                return Double.parseDouble(text.replace("_", ""));
            }
        } catch (NumberFormatException e) {
            return text;
        }
        return text;
    }
}
