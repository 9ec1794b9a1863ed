package nvidb.spi;

/**
 * What every plugin factory has in common. The name is what configuration refers to
 * ({@code probe: wsl}, {@code transport: ssh}, {@code queue.placement: pack}); two plugins of
 * one kind with one name make start-up fail, and so do a transport and a batch scheduler of one
 * name, since {@code transport:} names either.
 */
public interface PluginFactory {

    /** Stable name used in configuration; lower case, no spaces. */
    String name();

    /** The plugin's kind, one of {@link PluginKind}. */
    PluginKind kind();

    /** A human version string, for {@code nvidb plugins}. */
    default String version() {
        Package pkg = getClass().getPackage();
        String v = pkg == null ? null : pkg.getImplementationVersion();
        return v == null ? "builtin" : v;
    }
}
