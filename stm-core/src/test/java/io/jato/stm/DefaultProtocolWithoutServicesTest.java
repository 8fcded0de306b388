package io.jato.stm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A shaded application jar that does not merge {@code META-INF/services} files loses every
 * provider registration. The default protocol must not need one: this loads the core's classes in
 * a loader that hides every service file (and sees nothing else of the test's class path) and
 * builds stores there.
 */
class DefaultProtocolWithoutServicesTest {

    /** Child-first over the core's classes only; {@code META-INF/services/} does not exist. */
    private static final class NoServicesLoader extends URLClassLoader {
        NoServicesLoader(URL classes) {
            super("no-services", new URL[] {classes}, ClassLoader.getPlatformClassLoader());
        }

        /** Child-first for Jato: on the module path the platform loader would hand out the test's own classes. */
        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("io.jato.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL findResource(String name) {
            return name.startsWith("META-INF/services/") ? null : super.findResource(name);
        }

        @Override
        public Enumeration<URL> findResources(String name) throws IOException {
            return name.startsWith("META-INF/services/") ? Collections.emptyEnumeration() : super.findResources(name);
        }
    }

    @Test
    void defaultProtocolNeedsNoServiceFile() throws Exception {
        URL classes = Stm.class.getProtectionDomain().getCodeSource().getLocation();
        Thread thread = Thread.currentThread();
        ClassLoader saved = thread.getContextClassLoader();
        try (NoServicesLoader loader = new NoServicesLoader(classes)) {
            assertNull(loader.getResource("META-INF/services/io.jato.stm.spi.Protocol"));
            thread.setContextClassLoader(loader);
            Class<?> stm = Class.forName(Stm.class.getName(), true, loader);
            assertNotSame(Stm.class, stm, "the isolated loader must define its own Stm");

            Object byDefault = stm.getMethod("create").invoke(null);
            assertEquals("occ", stm.getMethod("protocol").invoke(byDefault));

            Object builder = stm.getMethod("builder").invoke(null);
            builder.getClass().getMethod("protocol", String.class).invoke(builder, "occ");
            Object named = builder.getClass().getMethod("build").invoke(builder);
            assertEquals("occ", stm.getMethod("protocol").invoke(named));

            assertEquals(List.of("occ"), stm.getMethod("availableProtocols").invoke(null));

            // A transaction runs on it: the core works, not just the lookup.
            Class<?> function = Class.forName(TxnFunction.class.getName(), true, loader);
            Method atomic = stm.getMethod("atomic", function);
            Object body = Proxy.newProxyInstance(loader, new Class<?>[] {function}, (proxy, m, args) ->
                    switch (m.getName()) {
                        case "apply" -> 42;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "body";
                    });
            assertEquals(42, atomic.invoke(byDefault, body));

            // Another name still fails with the list of the known ones.
            Object other = stm.getMethod("builder").invoke(null);
            other.getClass().getMethod("protocol", String.class).invoke(other, "tictoc");
            InvocationTargetException e = assertThrows(InvocationTargetException.class,
                    () -> other.getClass().getMethod("build").invoke(other));
            assertTrue(e.getCause() instanceof IllegalArgumentException, e.getCause().toString());
            assertTrue(e.getCause().getMessage().contains("known protocols: occ"), e.getCause().getMessage());
        } finally {
            thread.setContextClassLoader(saved);
        }
    }
}
