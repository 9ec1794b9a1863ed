package nvidb.cli.startup.build;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.instruction.SwitchCase;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import nvidb.cli.startup.CommandModel;
import nvidb.cli.startup.FieldAccess;

/**
 * Build time only (WriteCommandModel, after {@link ModelWriter}): for every package whose classes
 * have fields the command models bind, a class {@link FieldAccess#implementation} in that package
 * that gets and sets them with getfield and putfield (package access: no option field is private).
 * Written with the JDK's class-file API straight into the classes folder, so it ships in the
 * module like any compiled class and the AOT training loads it.
 */
public final class FieldAccessWriter {
    private static final ClassDesc FIELD_ACCESS = ClassDesc.of(FieldAccess.class.getName());
    private static final ClassDesc ILLEGAL_ARGUMENT = ClassDesc.of(IllegalArgumentException.class.getName());

    private FieldAccessWriter() {
    }

    /**
     * @param models  the folder of the written models
     * @param classes the classes folder (the package folders are under it)
     * @return the classes written, by name
     */
    public static List<String> write(Path models, Path classes, ClassLoader loader) throws IOException {
        Map<String, TreeSet<String>> byPackage = new TreeMap<>();
        for (CommandModel.Member m : fields(models)) {
            String pkg = m.declaringClass().substring(0, m.declaringClass().lastIndexOf('.'));
            byPackage.computeIfAbsent(pkg, p -> new TreeSet<>()).add(m.declaringClass() + "#" + m.name());
        }
        List<String> written = new ArrayList<>();
        for (Map.Entry<String, TreeSet<String>> e : byPackage.entrySet()) {
            String name = FieldAccess.implementation(e.getKey());
            List<Field> fields = new ArrayList<>();
            for (String key : e.getValue()) {
                fields.add(field(key, loader));
            }
            Path file = classes.resolve(name.replace('.', '/') + ".class");
            Files.write(file, generate(name, List.copyOf(e.getValue()), fields));
            written.add(name);
        }
        return written;
    }

    /** Every field a model binds: options, positionals, mixins, @Spec and @ParentCommand fields. */
    private static List<CommandModel.Member> fields(Path models) throws IOException {
        List<CommandModel.Member> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(models)) {
            files = list.filter(p -> p.toString().endsWith(".model")).sorted().toList();
        }
        for (Path file : files) {
            CommandModel model;
            try (InputStream in = Files.newInputStream(file)) {
                model = CommandModel.read(new DataInputStream(new BufferedInputStream(in)));
            }
            List<CommandModel.Member> members = new ArrayList<>(model.specFields());
            members.addAll(model.parentFields());
            for (CommandModel.Element element : model.elements()) {
                if (element instanceof CommandModel.Arg a && a.binding() != null) {
                    members.add(a.binding());
                } else if (element instanceof CommandModel.MixinRef r && r.field() != null) {
                    members.add(r.field());
                }
            }
            members.stream().filter(m -> !m.method()).forEach(out::add);
        }
        return out;
    }

    private static Field field(String key, ClassLoader loader) {
        String owner = key.substring(0, key.indexOf('#'));
        try {
            Field f = Class.forName(owner, false, loader).getDeclaredField(key.substring(owner.length() + 1));
            if (java.lang.reflect.Modifier.isPrivate(f.getModifiers())) {
                throw new IllegalStateException(key + " is private: an option field must be package-private,"
                        + " so that the generated FieldAccess can set it");
            }
            return f;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the command model names a missing field " + key, e);
        }
    }

    private static byte[] generate(String name, List<String> keys, List<Field> fields) {
        ClassDesc self = ClassDesc.of(name);
        return ClassFile.of().build(self, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SUPER);
            cb.withInterfaceSymbols(FIELD_ACCESS);
            cb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    b -> b.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            cb.withMethodBody("fields", MethodTypeDesc.of(CD_String.arrayType()), ClassFile.ACC_PUBLIC, b -> {
                b.loadConstant(keys.size()).anewarray(CD_String);
                for (int i = 0; i < keys.size(); i++) {
                    b.dup().loadConstant(i).loadConstant(keys.get(i)).aastore();
                }
                b.areturn();
            });
            cb.withMethodBody("get", MethodTypeDesc.of(CD_Object, CD_int, CD_Object), ClassFile.ACC_PUBLIC,
                    b -> each(b, fields, f -> {
                        b.aload(2).checkcast(owner(f)).getfield(owner(f), f.getName(), type(f));
                        box(b, f.getType());
                        b.areturn();
                    }));
            cb.withMethodBody("set", MethodTypeDesc.of(CD_void, CD_int, CD_Object, CD_Object), ClassFile.ACC_PUBLIC,
                    b -> each(b, fields, f -> {
                        b.aload(2).checkcast(owner(f)).aload(3);
                        unbox(b, f.getType());
                        b.putfield(owner(f), f.getName(), type(f)).return_();
                    }));
        });
    }

    /** {@code switch (field) { case i: body(fields[i]) … default: throw IllegalArgumentException }}. */
    private static void each(CodeBuilder b, List<Field> fields, java.util.function.Consumer<Field> body) {
        Label otherwise = b.newLabel();
        List<SwitchCase> cases = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            cases.add(SwitchCase.of(i, b.newLabel()));
        }
        b.iload(1).tableswitch(0, fields.size() - 1, otherwise, cases);
        for (int i = 0; i < fields.size(); i++) {
            b.labelBinding(cases.get(i).target());
            body.accept(fields.get(i));
        }
        b.labelBinding(otherwise);
        b.new_(ILLEGAL_ARGUMENT).dup().invokespecial(ILLEGAL_ARGUMENT, INIT_NAME, MTD_void).athrow();
    }

    private static ClassDesc owner(Field f) {
        return ClassDesc.ofDescriptor(f.getDeclaringClass().descriptorString());
    }

    private static ClassDesc type(Field f) {
        return ClassDesc.ofDescriptor(f.getType().descriptorString());
    }

    private static ClassDesc boxOf(Class<?> primitive) {
        return ClassDesc.ofDescriptor(java.lang.invoke.MethodType.methodType(primitive).wrap().returnType()
                .descriptorString());
    }

    private static void box(CodeBuilder b, Class<?> type) {
        if (type.isPrimitive()) {
            ClassDesc boxed = boxOf(type);
            b.invokestatic(boxed, "valueOf", MethodTypeDesc.of(boxed, ClassDesc.ofDescriptor(type.descriptorString())));
        }
    }

    private static void unbox(CodeBuilder b, Class<?> type) {
        if (type.isPrimitive()) {
            ClassDesc boxed = boxOf(type);
            b.checkcast(boxed).invokevirtual(boxed, type.getName() + "Value",
                    MethodTypeDesc.of(ClassDesc.ofDescriptor(type.descriptorString())));
        } else {
            b.checkcast(ClassDesc.ofDescriptor(type.descriptorString()));
        }
    }
}
