package nvidb.core.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import nvidb.core.api.ShellQuote;

/**
 * Renders a node script from the POSIX sh resources next to this class: a header nvidb fills in,
 * then {@code lib.sh} (the functions the scripts share), then the script's own resource, never
 * altered. The header holds only values, each through {@link ShellQuote}: {@code name=value}
 * lines and the positional parameters ({@code set --}) for lists, so no value can leave its word
 * whatever it holds; and, where a probe plugin supplies shell, that shell as a function. Each
 * resource names the values it reads in its first command ({@code : "${name?}"}), so a value the
 * header lacks stops the script at once, and shellcheck can check each resource as it is shipped.
 */
final class NodeShell {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Map<String, String> RESOURCES = new ConcurrentHashMap<>();

    /** For a header line that may hold shell text (a script, a command) quoted so that it does not expand yet. */
    private static final String KEPT_FROM_EXPANDING = "# shellcheck disable=SC2016 # shell text, quoted to keep it as it is\n";

    private final StringBuilder header = new StringBuilder("#!/bin/sh\n");

    /** A comment line in the header, for a reader of the script on the node. */
    NodeShell comment(String text) {
        header.append("# ").append(text.replace('\n', ' ')).append('\n');
        return this;
    }

    /** {@code name=value}; a null value is empty. */
    NodeShell set(String name, String value) {
        header.append(checked(name)).append('=').append(ShellQuote.quote(value == null ? "" : value)).append('\n');
        return this;
    }

    NodeShell set(String name, long value) {
        return set(name, String.valueOf(value));
    }

    /**
     * {@code name=text} where the text is shell (a script to write to a file): shellcheck's note
     * that nothing in single quotes expands is what is wanted here.
     */
    NodeShell setShell(String name, String text) {
        header.append(KEPT_FROM_EXPANDING);
        return set(name, text);
    }

    /** The script's positional parameters: a list the resource walks with {@code shift}. */
    NodeShell args(List<String> words) {
        header.append(KEPT_FROM_EXPANDING).append("set --");
        for (String w : words) {
            header.append(' ').append(ShellQuote.quote(w));
        }
        header.append('\n');
        return this;
    }

    /** A probe plugin's sh fragment as the function {@code name}; an empty fragment does nothing. */
    NodeShell function(String name, String fragment) {
        header.append(checked(name)).append("() {\n").append(fragment).append("\n:\n}\n");
        return this;
    }

    /** The header, lib.sh, then {@code resource}. */
    String withLib(String resource) {
        return header + resource("lib.sh") + resource(resource);
    }

    /** The header, then {@code resource}: for run.sh, which lives on in the job directory and needs no library. */
    String alone(String resource) {
        return header + resource(resource);
    }

    /** Whether {@code name} can be a shell variable's name. */
    static boolean isName(String name) {
        return NAME.matcher(name).matches();
    }

    private static String checked(String name) {
        if (!isName(name)) {
            throw new IllegalArgumentException("not a shell variable name: " + name);
        }
        return name;
    }

    /** A resource's text as shipped. */
    static String resource(String name) {
        return RESOURCES.computeIfAbsent(name, NodeShell::load);
    }

    private static String load(String name) {
        try (InputStream in = NodeShell.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from nvidb.core");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file's text: {@code text} with a newline added when it does not end in one. */
    static String withNewline(String text) {
        return text.endsWith("\n") ? text : text + "\n";
    }
}
