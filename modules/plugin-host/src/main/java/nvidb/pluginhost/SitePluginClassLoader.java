package nvidb.pluginhost;

import java.net.URL;
import org.pf4j.ClassLoadingStrategy;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * One site plugin's class loader. Parent first ({@link ClassLoadingStrategy#APD}) over a parent
 * that holds only the JDK, the SPI and pf4j: a plugin jar that bundles its own copy of the SPI
 * still gets the application's classes, while everything else it needs comes from its jar.
 */
final class SitePluginClassLoader extends PluginClassLoader {

    private final String pluginVersion;

    SitePluginClassLoader(PluginManager manager, PluginDescriptor descriptor) {
        super(manager, descriptor, SharedApiClassLoader.INSTANCE, ClassLoadingStrategy.APD);
        this.pluginVersion = descriptor.getVersion();
    }

    /**
     * Stamps the manifest's Plugin-Version on every package the plugin defines, because {@code
     * PluginFactory.version()} reads the package's implementation version: {@code nvidb plugins}
     * then shows the version pf4j validated, and no factory needs wrapping to carry it.
     */
    @Override
    protected Package definePackage(String name, String specTitle, String specVersion, String specVendor,
            String implTitle, String implVersion, String implVendor, URL sealBase) {
        return super.definePackage(name, specTitle, specVersion, specVendor, implTitle, pluginVersion, implVendor,
                sealBase);
    }
}
