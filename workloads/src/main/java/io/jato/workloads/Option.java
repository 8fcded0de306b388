package io.jato.workloads;

import java.util.Objects;

/**
 * The declaration of one long command-line option, {@code --name VALUE} or {@code --name=VALUE}
 * (or a bare {@code --name} for a flag).
 *
 * @param name         the name without the leading dashes
 * @param valueName    the placeholder shown in the usage ({@code N}, {@code FILE}), or null for a flag
 * @param help         one line of help; its default, if any, is part of the text
 */
public record Option(String name, String valueName, String help) {
    public Option {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(help, "help");
    }

    /** @return an option that takes a value */
    public static Option valued(String name, String valueName, String help) {
        return new Option(name, Objects.requireNonNull(valueName, "valueName"), help);
    }

    /** @return an option without a value */
    public static Option flag(String name, String help) {
        return new Option(name, null, help);
    }

    /** @return true if the option takes no value */
    public boolean isFlag() {
        return valueName == null;
    }

    /** @return how the option is written in the usage, e.g. {@code --threads N} */
    public String synopsis() {
        return isFlag() ? "--" + name : "--" + name + ' ' + valueName;
    }
}
