package nvidb.mcp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import nvidb.core.api.NvidbException;

/**
 * A tool call's arguments, checked against the tool's parameters before anything runs: an unknown
 * name or a value of the wrong shape is a {@code usage} error naming it and what would be right.
 * A string argument also takes a number ({@code "id": 12}), which agents send for ids; nothing
 * else is converted. The handler reads each by name; what it read is kept, so a test can hold
 * every parameter to being used.
 */
public final class ToolArguments {
    private final String tool;
    private final Map<String, ToolParameter> parameters = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Set<String> read = new LinkedHashSet<>();

    public ToolArguments(String tool, List<ToolParameter> parameters, Map<String, Object> given) {
        this.tool = tool;
        parameters.forEach(p -> this.parameters.put(p.name(), p));
        Map<String, Object> args = given == null ? Map.of() : given;
        for (Map.Entry<String, Object> e : args.entrySet()) {
            ToolParameter p = this.parameters.get(e.getKey());
            if (p == null) {
                throw NvidbException.usage(tool + " takes no argument '" + e.getKey() + "'; it takes: "
                        + String.join(", ", this.parameters.keySet()));
            }
            if (e.getValue() != null) {
                values.put(p.name(), checked(p, e.getValue()));
            }
        }
        for (ToolParameter p : parameters) {
            if (p.required() && !values.containsKey(p.name())) {
                throw NvidbException.usage(tool + " needs '" + p.name() + "' (" + p.description() + ")");
            }
        }
    }

    private Object checked(ToolParameter p, Object v) {
        return switch (p.kind()) {
            case STRING -> {
                if (v instanceof String s) {
                    yield s;
                }
                if (v instanceof Number n) {
                    yield new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
                }
                throw wrong(p, v, "a string");
            }
            case INTEGER -> {
                if (v instanceof Integer || v instanceof Long || v instanceof BigInteger
                        || (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()))) {
                    long l = ((Number) v).longValue();
                    yield l;
                }
                throw wrong(p, v, "a whole number");
            }
            case NUMBER -> {
                if (v instanceof Number n) {
                    yield n.doubleValue();
                }
                throw wrong(p, v, "a number");
            }
            case BOOLEAN -> {
                if (v instanceof Boolean b) {
                    yield b;
                }
                throw wrong(p, v, "true or false");
            }
            case STRINGS -> {
                List<Object> items = v instanceof List<?> l ? new ArrayList<>(l) : List.of(v);
                List<String> out = new ArrayList<>();
                for (Object item : items) {
                    if (item instanceof String s) {
                        out.add(s);
                    } else if (item instanceof Number n) {
                        out.add(new BigDecimal(n.toString()).stripTrailingZeros().toPlainString());
                    } else {
                        throw wrong(p, v, "a list of strings");
                    }
                }
                yield List.copyOf(out);
            }
        };
    }

    private NvidbException wrong(ToolParameter p, Object v, String expected) {
        String shown = v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
        if (shown.length() > 80) {
            shown = shown.substring(0, 77) + "...";
        }
        return NvidbException.usage(tool + ": '" + p.name() + "' takes " + expected + " (" + p.cliName() + "), got " + shown);
    }

    private Object value(String name) {
        if (!parameters.containsKey(name)) {
            // A handler reading what its CLI command does not take: the two doors have drifted.
            throw new IllegalStateException(tool + " reads '" + name + "', which the CLI's model does not define");
        }
        read.add(name);
        return values.get(name);
    }

    public String string(String name) {
        return (String) value(name);
    }

    public boolean flag(String name) {
        return Boolean.TRUE.equals(value(name));
    }

    /** Whether the caller gave {@code name} (for flags whose absence means something else than false). */
    public boolean given(String name) {
        value(name);
        return values.containsKey(name);
    }

    /** An integer argument, or {@code orElse} when not given; out of int's range is a usage error. */
    public Integer integer(String name, Integer orElse) {
        Object v = value(name);
        if (v == null) {
            return orElse;
        }
        long l = (Long) v;
        if (l != (int) l) {
            throw NvidbException.usage(tool + ": '" + name + "' is out of range: " + l);
        }
        return (int) l;
    }

    public Long longValue(String name) {
        return (Long) value(name);
    }

    public Double number(String name) {
        return (Double) value(name);
    }

    @SuppressWarnings("unchecked")
    public List<String> strings(String name) {
        Object v = value(name);
        return v == null ? List.of() : (List<String>) v;
    }

    /** The names a handler read (tests: every parameter a tool takes is used). */
    public Set<String> read() {
        return Set.copyOf(read);
    }
}
