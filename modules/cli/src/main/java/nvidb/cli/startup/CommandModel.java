package nvidb.cli.startup;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What picocli read from the annotations of one command or mixin class, written at build time
 * ({@link nvidb.cli.startup.build.ModelWriter}) and replayed at run time ({@link CommandLines}) without reading a single
 * annotation: the JDK makes every annotation a dynamic proxy, and generating those proxy classes
 * (and building picocli's model from them) cost a command 40-50 ms of CPU, more than the command's
 * own work. Plain values only; the run-time side binds them to the user object's members.
 *
 * @param className    the class the model describes
 * @param name         the {@code @Command} name (null for a mixin)
 * @param version      the {@code version} strings of {@code @Command}
 * @param versionProvider the version provider's class, or null
 * @param usage        the usage-message settings that differ from picocli's defaults, by name
 * @param elements     the class's own arguments and its mixins, in picocli's order
 * @param specFields   the fields {@code @Spec} fills with the command's spec
 * @param parentFields the fields {@code @ParentCommand} fills with the parent command
 * @param subcommands  the subcommands {@code @Command(subcommands = …)} names: name → class
 * @param documents    the view records the command's {@code --json} answer is made of, by class
 *                     name: what {@link JsonWarmUp} prepares (derived from the command's bytecode,
 *                     {@link nvidb.cli.startup.build.JsonDocuments})
 */
public record CommandModel(String className, String name, List<String> version, String versionProvider,
                           Map<String, Object> usage, List<Element> elements, List<Member> specFields,
                           List<Member> parentFields, Map<String, String> subcommands, List<String> documents) {
    private static final String MAGIC = "nvidb-cli-model/2";

    /** An option, a positional parameter, or a mixin, in the order picocli lists them. */
    public sealed interface Element permits Arg, MixinRef {
    }

    /** A field or method of the class (or a superclass) that an element is bound to. */
    public record Member(String declaringClass, String name, boolean method) {
    }

    /**
     * One option or positional parameter, every attribute as picocli worked it out.
     *
     * @param binding the member it sets, or null for a value held by picocli alone (the
     *                standard help options)
     * @param arity   the arity; {@code arityUnspecified} where picocli chose it, not the annotation
     * @param described what picocli's {@code toString} says of it (error messages name it so)
     */
    public record Arg(boolean option, List<String> names, String index, List<String> description, String descriptionKey,
               String paramLabel, boolean hideParamSyntax, String arity, boolean arityUnspecified, String type, List<String> auxiliaryTypes,
               List<String> converters, String splitRegex, String splitRegexSynopsisLabel, String defaultValue,
               String fallbackValue, String mapFallbackValue, boolean required, boolean hidden, boolean usageHelp,
               boolean versionHelp, boolean help, boolean negatable, boolean interactive, boolean echo, String prompt,
               int order, String scopeType, String showDefaultValue, Member binding,
               String described) implements Element {
    }

    /**
     * A mixin: its name, the field holding it (null for picocli's standard help options) and its
     * class's model.
     */
    public record MixinRef(String name, Member field, String mixinClass) implements Element {
    }

    /** The resource holding the model of {@code className}, beside this class. */
    public static String resource(String className) {
        return className + ".model";
    }

    public void write(DataOutputStream out) throws IOException {
        out.writeUTF(MAGIC);
        out.writeUTF(className);
        string(out, name);
        strings(out, version);
        string(out, versionProvider);
        out.writeInt(usage.size());
        for (Map.Entry<String, Object> e : usage.entrySet()) {
            out.writeUTF(e.getKey());
            value(out, e.getValue());
        }
        out.writeInt(elements.size());
        for (Element e : elements) {
            if (e instanceof Arg a) {
                out.writeByte('A');
                arg(out, a);
            } else if (e instanceof MixinRef r) {
                out.writeByte('M');
                out.writeUTF(r.name);
                member(out, r.field);
                out.writeUTF(r.mixinClass);
            }
        }
        members(out, specFields);
        members(out, parentFields);
        out.writeInt(subcommands.size());
        for (Map.Entry<String, String> e : subcommands.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
        strings(out, documents);
    }

    public static CommandModel read(DataInputStream in) throws IOException {
        if (!in.readUTF().equals(MAGIC)) {
            throw new IOException("not a " + MAGIC + " file");
        }
        String className = in.readUTF();
        String name = string(in);
        List<String> version = strings(in);
        String versionProvider = string(in);
        Map<String, Object> usage = new LinkedHashMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            usage.put(in.readUTF(), value(in));
        }
        List<Element> elements = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            elements.add(in.readByte() == 'A' ? arg(in) : new MixinRef(in.readUTF(), member(in), in.readUTF()));
        }
        List<Member> specFields = members(in);
        List<Member> parentFields = members(in);
        Map<String, String> subcommands = new LinkedHashMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            subcommands.put(in.readUTF(), in.readUTF());
        }
        return new CommandModel(className, name, version, versionProvider, usage, elements, specFields, parentFields,
                subcommands, strings(in));
    }

    private static void arg(DataOutputStream out, Arg a) throws IOException {
        out.writeBoolean(a.option);
        strings(out, a.names);
        string(out, a.index);
        strings(out, a.description);
        string(out, a.descriptionKey);
        string(out, a.paramLabel);
        out.writeBoolean(a.hideParamSyntax);
        out.writeUTF(a.arity);
        out.writeBoolean(a.arityUnspecified);
        out.writeUTF(a.type);
        strings(out, a.auxiliaryTypes);
        strings(out, a.converters);
        string(out, a.splitRegex);
        string(out, a.splitRegexSynopsisLabel);
        string(out, a.defaultValue);
        string(out, a.fallbackValue);
        string(out, a.mapFallbackValue);
        for (boolean b : new boolean[] {a.required, a.hidden, a.usageHelp, a.versionHelp, a.help, a.negatable,
            a.interactive, a.echo}) {
            out.writeBoolean(b);
        }
        string(out, a.prompt);
        out.writeInt(a.order);
        string(out, a.scopeType);
        string(out, a.showDefaultValue);
        member(out, a.binding);
        out.writeUTF(a.described);
    }

    private static Arg arg(DataInputStream in) throws IOException {
        boolean option = in.readBoolean();
        List<String> names = strings(in);
        String index = string(in);
        List<String> description = strings(in);
        String descriptionKey = string(in);
        String paramLabel = string(in);
        boolean hideParamSyntax = in.readBoolean();
        String arity = in.readUTF();
        boolean arityUnspecified = in.readBoolean();
        String type = in.readUTF();
        List<String> auxiliaryTypes = strings(in);
        List<String> converters = strings(in);
        String splitRegex = string(in);
        String splitRegexSynopsisLabel = string(in);
        String defaultValue = string(in);
        String fallbackValue = string(in);
        String mapFallbackValue = string(in);
        boolean[] b = new boolean[8];
        for (int i = 0; i < b.length; i++) {
            b[i] = in.readBoolean();
        }
        String prompt = string(in);
        int order = in.readInt();
        String scopeType = string(in);
        String showDefaultValue = string(in);
        Member binding = member(in);
        String described = in.readUTF();
        return new Arg(option, names, index, description, descriptionKey, paramLabel, hideParamSyntax, arity,
                arityUnspecified, type,
                auxiliaryTypes, converters, splitRegex, splitRegexSynopsisLabel, defaultValue, fallbackValue,
                mapFallbackValue, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], prompt, order, scopeType,
                showDefaultValue, binding, described);
    }

    private static void member(DataOutputStream out, Member m) throws IOException {
        out.writeBoolean(m != null);
        if (m != null) {
            out.writeUTF(m.declaringClass);
            out.writeUTF(m.name);
            out.writeBoolean(m.method);
        }
    }

    private static Member member(DataInputStream in) throws IOException {
        return in.readBoolean() ? new Member(in.readUTF(), in.readUTF(), in.readBoolean()) : null;
    }

    private static void members(DataOutputStream out, List<Member> members) throws IOException {
        out.writeInt(members.size());
        for (Member m : members) {
            member(out, m);
        }
    }

    private static List<Member> members(DataInputStream in) throws IOException {
        List<Member> out = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            out.add(member(in));
        }
        return out;
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String string(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static void strings(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) {
            out.writeUTF(s);
        }
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readUTF());
        }
        return out;
    }

    /**
     * A usage-message setting: a string, strings, a boolean, a char, an int, a double or a string
     * map. An if chain, not a pattern switch, as everywhere in this package (StartupRules).
     */
    private static void value(DataOutputStream out, Object v) throws IOException {
        if (v instanceof String s) {
            out.writeByte('s');
            out.writeUTF(s);
        } else if (v instanceof String[] a) {
            out.writeByte('a');
            strings(out, List.of(a));
        } else if (v instanceof Boolean b) {
            out.writeByte('b');
            out.writeBoolean(b);
        } else if (v instanceof Character c) {
            out.writeByte('c');
            out.writeChar(c);
        } else if (v instanceof Integer i) {
            out.writeByte('i');
            out.writeInt(i);
        } else if (v instanceof Double d) {
            out.writeByte('d');
            out.writeDouble(d);
        } else if (v instanceof Map<?, ?> map) {
            out.writeByte('m');
            out.writeInt(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.writeUTF(String.valueOf(e.getKey()));
                out.writeUTF(String.valueOf(e.getValue()));
            }
        } else {
            throw new IOException("cannot write a " + v.getClass().getName());
        }
    }

    private static Object value(DataInputStream in) throws IOException {
        return switch (in.readByte()) {
            case 's' -> in.readUTF();
            case 'a' -> strings(in).toArray(String[]::new);
            case 'b' -> in.readBoolean();
            case 'c' -> in.readChar();
            case 'i' -> in.readInt();
            case 'd' -> in.readDouble();
            case 'm' -> {
                Map<String, String> map = new LinkedHashMap<>();
                for (int n = in.readInt(); n > 0; n--) {
                    map.put(in.readUTF(), in.readUTF());
                }
                yield map;
            }
            default -> throw new IOException("unknown value kind");
        };
    }
}
