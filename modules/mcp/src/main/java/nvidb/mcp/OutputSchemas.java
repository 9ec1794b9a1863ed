package nvidb.mcp;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The output schema of a tool, made from the record its answer is (the CLI's {@code --json}
 * document): each component a property under its {@code snake_case} key (as {@code nvidb.core.api.Json}
 * writes it), unwrapped components' properties inline, with its JSON type. Permissive on purpose:
 * a value may be null, no property is required and more may follow, so the schema says what each
 * key holds without ever refusing a document the CLI would print.
 */
final class OutputSchemas {
    private static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private OutputSchemas() {
    }

    static Map<String, Object> of(Class<?> type) {
        return object(type, Set.of());
    }

    private static Map<String, Object> object(Class<?> type, Set<Class<?>> seen) {
        Map<String, Object> properties = new LinkedHashMap<>();
        if (type.isRecord() && !seen.contains(type)) {
            Set<Class<?>> inner = new java.util.HashSet<>(seen);
            inner.add(type);
            properties(type, properties, inner);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        return s;
    }

    private static void properties(Class<?> type, Map<String, Object> into, Set<Class<?>> seen) {
        for (RecordComponent c : type.getRecordComponents()) {
            if (c.getAccessor().isAnnotationPresent(JsonUnwrapped.class) || c.isAnnotationPresent(JsonUnwrapped.class)) {
                if (c.getType().isRecord()) {
                    properties(c.getType(), into, seen);
                }
                continue;
            }
            JsonProperty named = c.getAccessor().getAnnotation(JsonProperty.class);
            String key = named != null && !named.value().isEmpty() ? named.value() : SNAKE.translate(c.getName());
            into.put(key, nullable(schema(c.getGenericType(), seen)));
        }
        // Computed properties (@JsonProperty methods that are not components).
        for (Method m : type.getDeclaredMethods()) {
            JsonProperty named = m.getAnnotation(JsonProperty.class);
            if (named != null && m.getParameterCount() == 0 && !named.value().isEmpty()) {
                into.putIfAbsent(named.value(), nullable(schema(m.getGenericReturnType(), seen)));
            }
        }
    }

    private static Map<String, Object> schema(Type t, Set<Class<?>> seen) {
        Class<?> raw = t instanceof Class<?> c ? c : t instanceof ParameterizedType p ? (Class<?>) p.getRawType() : Object.class;
        if (raw == String.class || raw.isEnum() || CharSequence.class.isAssignableFrom(raw)) {
            return Map.of("type", "string");
        }
        if (raw == int.class || raw == long.class || raw == Integer.class || raw == Long.class || raw == short.class) {
            return Map.of("type", "integer");
        }
        if (raw == double.class || raw == float.class || raw == Double.class || raw == Float.class) {
            return Map.of("type", "number");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return Map.of("type", "boolean");
        }
        if (JsonNode.class.isAssignableFrom(raw)) {
            return Map.of(); // any JSON value (a result, event data, a vram_source); a JsonNode is Iterable, not an array
        }
        if (Collection.class.isAssignableFrom(raw) || raw.isArray() || Iterable.class.isAssignableFrom(raw)) {
            Type item = t instanceof ParameterizedType p && p.getActualTypeArguments().length == 1
                    ? p.getActualTypeArguments()[0] : raw.isArray() ? raw.getComponentType() : Object.class;
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("type", "array");
            Map<String, Object> items = schema(item, seen);
            if (!items.isEmpty()) {
                s.put("items", nullable(items));
            }
            return s;
        }
        if (Map.class.isAssignableFrom(raw)) {
            return Map.of("type", "object");
        }
        if (raw.isRecord()) {
            return object(raw, seen);
        }
        if (raw == Object.class) {
            return Map.of(); // any JSON value
        }
        // A class written by its own serialiser (a stream of jobs, a pass's summary): any JSON value.
        return Map.of();
    }

    /** {@code schema}, or null. */
    private static Map<String, Object> nullable(Map<String, Object> schema) {
        Object type = schema.get("type");
        if (type == null) {
            return schema;
        }
        Map<String, Object> s = new LinkedHashMap<>(schema);
        s.put("type", java.util.List.of(type, "null"));
        return s;
    }
}
