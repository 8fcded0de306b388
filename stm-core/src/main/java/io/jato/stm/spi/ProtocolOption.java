package io.jato.stm.spi;

import java.util.Objects;

/**
 * One per-store option a protocol accepts through {@code Stm.Builder.option(name, value)}: its
 * name, the value it has when not given, and one line saying what it does. A protocol lists them
 * in {@link Protocol#options()}; the builder rejects any other name, and the protocol reads the
 * values (given or default) from {@link ProtocolContext} when the store is created. Immutable.
 */
public final class ProtocolOption {
    private final String name;
    private final String defaultValue;
    private final String description;

    private ProtocolOption(String name, String defaultValue, String description) {
        this.name = name;
        this.defaultValue = defaultValue;
        this.description = description;
    }

    /**
     * @param name         the option's name, unique within its protocol (e.g. {@code "noWait"})
     * @param defaultValue the value when the builder does not set it, as the builder would be given it
     * @param description  one line: what the option changes
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code name} is empty or contains whitespace
     */
    public static ProtocolOption of(String name, Object defaultValue, String description) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
        if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("an option name must be non-empty without whitespace, got '" + name + "'");
        }
        return new ProtocolOption(name, String.valueOf(defaultValue), description);
    }

    /** @return the option's name */
    public String name() {
        return name;
    }

    /** @return the value used when the builder does not set the option */
    public String defaultValue() {
        return defaultValue;
    }

    /** @return what the option does, in one line */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return name + "=" + defaultValue;
    }
}
