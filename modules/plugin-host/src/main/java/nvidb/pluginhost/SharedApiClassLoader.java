package nvidb.pluginhost;

import nvidb.spi.PluginFactory;
import org.pf4j.Plugin;

/**
 * The parent of every site plugin's class loader. It offers the JDK's platform modules, the SPI
 * and pf4j, and nothing else: a plugin cannot reach core, the CLI or their libraries, so it
 * cannot come to depend on them, and a library it bundles cannot clash with one of ours.
 * Serving the SPI from the application's own loader is what makes {@code instanceof
 * ProbeFactory} hold for a plugin's factory (Trino's {@code PluginClassLoader} does the same).
 */
final class SharedApiClassLoader extends ClassLoader {

    static final SharedApiClassLoader INSTANCE = new SharedApiClassLoader();

    private static final String SPI_PREFIX = "nvidb.spi.";
    // pf4j's own PluginClassLoader sends org.pf4j.* to its parent unconditionally, so a plugin
    // written in pf4j's style (a Plugin-Class, ExtensionPoint markers) must find them here.
    private static final String PF4J_PREFIX = "org.pf4j.";

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader spiLoader = PluginFactory.class.getClassLoader();
    private final ClassLoader pf4jLoader = Plugin.class.getClassLoader();

    private SharedApiClassLoader() {
        super("nvidb-site-plugin-api", ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(SPI_PREFIX)) {
            return spiLoader.loadClass(name);
        }
        if (name.startsWith(PF4J_PREFIX)) {
            return pf4jLoader.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }
}
