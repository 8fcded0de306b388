package io.jato.stm.internal;

import io.jato.stm.AbortCause;
import io.jato.stm.Stm;
import io.jato.stm.StmMXBean;
import io.jato.stm.StmStatistics;
import io.jato.stm.TxnType;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanRegistration;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One store's {@link StmMXBean} and its registration on the platform MBeanServer. The store
 * creates it when built with {@code jmx(true)}, calls {@link #register()} once built, and
 * {@link #unregister()} when asked; every attribute reads the store's counters when asked, so
 * transactions never see this class.
 *
 * <p>Registration state follows the MBeanServer's callbacks ({@link MBeanRegistration}), so an
 * unregistration by any JMX client through the server is seen too. Registering and unregistering
 * hold one lock shared by every store: once this store's MXBean is gone, another store may take
 * its name, and {@link #unregister()} must then remove nothing — without the lock a store could
 * see its own MXBean registered, lose it to a client, and remove the newcomer's.
 */
public final class StmJmx implements StmMXBean, MBeanRegistration {
    /** The ObjectName domain of every store's MXBean. */
    public static final String DOMAIN = "io.jato";
    /** Guards the check-then-act of registering and unregistering, across stores. */
    private static final Object REGISTRY_LOCK = new Object();

    private final Stm stm;
    private final boolean statistics;
    private final ObjectName name;
    /** Whether the server holds this object under {@link #name}: set and cleared by its callbacks. */
    private volatile boolean registered;

    /**
     * @param stm        the store (the root store object, not a protocol view)
     * @param statistics whether the store counts transactions
     */
    public StmJmx(Stm stm, boolean statistics) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.statistics = statistics;
        this.name = objectName(stm.name());
    }

    /**
     * @return {@code io.jato:type=Stm,name=<quoted storeName>}; quoting makes every store name
     *         valid, commas, colons, quotes and newlines included
     */
    public static ObjectName objectName(String storeName) {
        String text = DOMAIN + ":type=Stm,name=" + ObjectName.quote(storeName);
        try {
            return new ObjectName(text);
        } catch (MalformedObjectNameException e) {
            // ObjectName.quote promises a valid value; this would be a JDK bug.
            throw new IllegalStateException("the quoted store name is not a valid ObjectName: " + text, e);
        }
    }

    /**
     * Registers this MXBean on the platform MBeanServer.
     *
     * @throws IllegalStateException if an MBean is registered under the same name already (another
     *                               store of the same name); nothing is registered then
     */
    public void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        synchronized (REGISTRY_LOCK) {
            try {
                server.registerMBean(this, name);
            } catch (InstanceAlreadyExistsException e) {
                throw new IllegalStateException("cannot register store '" + stm.name() + "' for JMX: " + name
                        + " is registered already (another store of that name built with jmx(true)); give the"
                        + " stores distinct names (Stm.Builder.name) or unregister the other (Stm.unregisterJmx)", e);
            } catch (MBeanRegistrationException | NotCompliantMBeanException e) {
                // Neither can happen: the callbacks below do not throw and the interface is compliant.
                throw new IllegalStateException("cannot register store '" + stm.name() + "' as " + name, e);
            }
        }
    }

    /**
     * Removes this MXBean from the platform MBeanServer if it is still there.
     *
     * @return true if this call removed it; false if it was not registered (unregistered before,
     *         by this method or by a JMX client)
     */
    public boolean unregister() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        synchronized (REGISTRY_LOCK) {
            if (!registered) {
                return false;
            }
            try {
                server.unregisterMBean(name);
                return true;
            } catch (InstanceNotFoundException e) {
                // A client removed it between the check and the call; its callback cleared the flag.
                return false;
            } catch (MBeanRegistrationException e) {
                // The callbacks below do not throw.
                throw new IllegalStateException("cannot unregister " + name, e);
            }
        }
    }

    /** @return the name this MXBean is registered under, or null if it is not registered */
    public String registeredName() {
        return registered ? name.toString() : null;
    }

    @Override
    public ObjectName preRegister(MBeanServer server, ObjectName requested) {
        return name;
    }

    @Override
    public void postRegister(Boolean registrationDone) {
        registered = Boolean.TRUE.equals(registrationDone);
    }

    @Override
    public void preDeregister() {
        // Nothing to release: the view holds no resources of its own.
    }

    @Override
    public void postDeregister() {
        registered = false;
    }

    @Override
    public String getName() {
        return stm.name();
    }

    @Override
    public List<String> getProtocols() {
        return stm.protocols();
    }

    @Override
    public boolean isStatisticsEnabled() {
        return statistics;
    }

    @Override
    public long getStarts() {
        return stm.statistics().starts();
    }

    @Override
    public long getCommits() {
        return stm.statistics().commits();
    }

    @Override
    public long getAborts() {
        return stm.statistics().aborts();
    }

    @Override
    public double getAbortRate() {
        return stm.statistics().abortRate();
    }

    @Override
    public Map<String, Long> getAbortsByCause() {
        StmStatistics s = stm.statistics();
        Map<String, Long> out = new LinkedHashMap<>();
        for (AbortCause c : AbortCause.values()) {
            out.put(c.name(), s.aborts(c));
        }
        return out;
    }

    @Override
    public Map<String, TypeStatistics> getStatisticsByType() {
        Map<String, TypeStatistics> out = new LinkedHashMap<>();
        for (Map.Entry<TxnType, StmStatistics> e : stm.statisticsByType().entrySet()) {
            out.put(e.getKey().name(), TypeStatistics.of(e.getValue()));
        }
        return out;
    }
}
