package nvidb.cli.startup;

/**
 * Reads and writes the option fields of the command classes of one package with plain field
 * instructions: {@link nvidb.cli.startup.build.FieldAccessWriter} generates the implementation at build time. Reflection
 * would do the same, but each kind of field it touches makes the JDK spin method-handle classes
 * at run time, on every start (the AOT cache cannot hold them): ~10 ms of a submit, measured.
 */
public interface FieldAccess {
    /** The name of the generated implementation in {@code pkg}. */
    static String implementation(String pkg) {
        return pkg + ".GeneratedFieldAccess";
    }

    /** The fields reached, as {@code declaringClass#field}, in the order of their numbers. */
    String[] fields();

    /** The value of field number {@code field} of {@code owner}, primitives boxed. */
    Object get(int field, Object owner);

    /** Sets field number {@code field} of {@code owner} to {@code value}, primitives unboxed. */
    void set(int field, Object owner, Object value);
}
