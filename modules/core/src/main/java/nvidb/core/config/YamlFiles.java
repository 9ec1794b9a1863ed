package nvidb.core.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.core.error.NvidbException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/** Reads a YAML file into {@link YamlValue}s that remember their line. */
final class YamlFiles {
    private YamlFiles() {
    }

    /** The top-level mapping of {@code file}; an absent or empty file reads as an empty mapping. */
    static Map<String, YamlValue> readMapping(Path file) {
        if (!Files.isRegularFile(file)) {
            return new LinkedHashMap<>();
        }
        Node root;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            root = new Yaml(options).compose(reader);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String line = m == null ? "" : ", line " + (m.getLine() + 1);
            throw NvidbException.usage("configuration " + file + line + " is not valid YAML: "
                    + e.getProblem() + (e.getContext() != null ? " (" + e.getContext() + ")" : ""));
        } catch (YAMLException e) {
            throw NvidbException.usage("configuration " + file + " is not valid YAML: " + e.getMessage());
        } catch (IOException e) {
            throw NvidbException.usage("could not read configuration " + file + ": " + e.getMessage());
        }
        if (root == null) {
            return new LinkedHashMap<>();
        }
        YamlValue value = convert(root, file.toString());
        if (value.value() == null) {
            return new LinkedHashMap<>();
        }
        if (!value.isMap()) {
            throw NvidbException.usage("configuration " + file + ", line " + value.line()
                    + ": the file must hold a mapping of keys (such as queue: and servers:), not a "
                    + describe(value));
        }
        return value.map();
    }

    static String describe(YamlValue v) {
        if (v.isMap()) {
            return "mapping";
        }
        if (v.isList()) {
            return "list";
        }
        return v.value() == null ? "empty value" : "value '" + v.value() + "'";
    }

    private static YamlValue convert(Node node, String file) {
        int line = node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
        return switch (node) {
            case MappingNode m -> {
                Map<String, YamlValue> out = new LinkedHashMap<>();
                for (NodeTuple t : m.getValue()) {
                    YamlValue key = convert(t.getKeyNode(), file);
                    out.put(String.valueOf(key.value()), convert(t.getValueNode(), file));
                }
                yield new YamlValue(out, file, line);
            }
            case SequenceNode s -> {
                List<YamlValue> out = new ArrayList<>();
                for (Node child : s.getValue()) {
                    out.add(convert(child, file));
                }
                yield new YamlValue(out, file, line);
            }
            case ScalarNode s -> new YamlValue(scalar(s), file, line);
            default -> new YamlValue(null, file, line);
        };
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
