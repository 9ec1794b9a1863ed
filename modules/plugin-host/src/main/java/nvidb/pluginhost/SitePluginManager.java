package nvidb.pluginhost;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.pf4j.JarPluginManager;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginLoader;
import org.pf4j.PluginRuntimeException;
import org.pf4j.PluginWrapper;

/**
 * pf4j's jar plugin manager with nvidb's class loader, driven one jar at a time: {@link
 * org.pf4j.AbstractPluginManager#loadPlugins()} logs a broken plugin and goes on, which with
 * logging switched off would make a broken jar vanish without a word.
 */
final class SitePluginManager extends JarPluginManager {

    /**
     * @param roots the plugin folders, the user's own first: pf4j reads {@code enabled.txt} and
     *              {@code disabled.txt} from the first one; they need not exist
     */
    SitePluginManager(List<Path> roots) {
        super(roots.toArray(Path[]::new));
    }

    /** Reads the jar's descriptor and gives it its class loader; pf4j's exceptions pass through. */
    PluginWrapper loadJar(Path jar) {
        // pf4j refuses a second jar with a loaded Plugin-Id too, but in a message that dumps its
        // internal descriptor; this one names both jars and nothing else.
        PluginWrapper sameId = getPlugin(getPluginDescriptorFinder().find(jar).getPluginId());
        if (sameId != null) {
            throw new PluginRuntimeException("its Plugin-Id '{}' is also that of {}; remove one of the two",
                    sameId.getPluginId(), sameId.getPluginPath());
        }
        return loadPluginFromPath(jar);
    }

    /** Orders the loaded plugins by their Plugin-Dependencies; pf4j's exceptions pass through. */
    void resolve() {
        resolvePlugins();
    }

    // pf4j asks for its loader from its own constructor; this one makes one SitePluginClassLoader per jar.
    @Override
    protected PluginLoader createPluginLoader() {
        return new PluginLoader() {
            @Override
            public boolean isApplicable(Path pluginPath) {
                return Files.isRegularFile(pluginPath);
            }

            @Override
            public ClassLoader loadPlugin(Path pluginPath, PluginDescriptor descriptor) {
                SitePluginClassLoader loader = new SitePluginClassLoader(SitePluginManager.this, descriptor);
                loader.addFile(pluginPath.toFile());
                return loader;
            }
        };
    }
}
