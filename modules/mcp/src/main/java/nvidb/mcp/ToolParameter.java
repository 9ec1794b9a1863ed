package nvidb.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One argument of a tool: a CLI option or positional parameter as the CLI's own model describes
 * it ({@code --idempotency-key} is {@code idempotency_key}; a positional parameter is named by its
 * label, {@code ID} is {@code id}), so the two doors take the same things.
 *
 * @param cliName how the CLI spells it ({@code --idempotency-key}, {@code IDS}), for error sentences
 */
public record ToolParameter(String name, Kind kind, String description, boolean required, String cliName) {
    /** The JSON shapes an argument takes. */
    public enum Kind {
        STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean"), STRINGS("array");

        private final String jsonType;

        Kind(String jsonType) {
            this.jsonType = jsonType;
        }

        public String jsonType() {
            return jsonType;
        }
    }

    /** {@code --idempotency-key} → {@code idempotency_key}; {@code IDS} → {@code ids}. */
    public static String nameOf(String cliName) {
        String bare = cliName.replaceFirst("^-+", "");
        return bare.replace('-', '_').toLowerCase(java.util.Locale.ROOT);
    }

    /** This argument's JSON Schema. */
    Map<String, Object> schema() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", kind.jsonType());
        if (kind == Kind.STRINGS) {
            s.put("items", Map.of("type", "string"));
        }
        s.put("description", description);
        return s;
    }

    /** The input schema of a tool taking {@code parameters}: an object of exactly these properties. */
    static Map<String, Object> objectSchema(List<ToolParameter> parameters) {
        Map<String, Object> properties = new LinkedHashMap<>();
        parameters.forEach(p -> properties.put(p.name(), p.schema()));
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        List<String> required = parameters.stream().filter(ToolParameter::required).map(ToolParameter::name).toList();
        if (!required.isEmpty()) {
            s.put("required", required);
        }
        s.put("additionalProperties", false);
        return s;
    }
}
