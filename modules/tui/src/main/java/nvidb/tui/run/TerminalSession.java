package nvidb.tui.run;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Map;
import nvidb.tui.model.KeyDecoder;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.InfoCmp;

/**
 * The terminal while the TUI owns it: raw input with Ctrl-C as a key (so quitting is always
 * the TUI's own, orderly way out), the alternate screen, a hidden cursor and SGR mouse
 * reports. {@link #close} puts every one of those back, whichever way the TUI ends. When the
 * JVM ends from outside (SIGTERM, a hang-up) a shutdown hook does it: JLine's own hook, which
 * runs at the same time, restores the terminal's settings but knows nothing of the screen.
 */
final class TerminalSession implements AutoCloseable {
    private static final String ENTER = "\u001b[?1049h\u001b[?25l\u001b[?1000h\u001b[?1006h";
    private static final String LEAVE = "\u001b[?1006l\u001b[?1000l\u001b[0m\u001b[?25h\u001b[?1049l";

    private final Terminal terminal;
    private final Attributes saved;
    private final boolean colour;
    private final Thread hook = new Thread(this::leaveScreen, "nvidb-tui-restore");
    /** Guards the screen: a frame and leaving the screen never interleave. */
    private final Object screen = new Object();
    private boolean left;
    private boolean closed;

    private TerminalSession(Terminal terminal, boolean colour) {
        this.terminal = terminal;
        this.colour = colour;
        this.saved = terminal.enterRawMode();
        Attributes raw = terminal.getAttributes();
        raw.setLocalFlag(Attributes.LocalFlag.ISIG, false);
        terminal.setAttributes(raw);
        Runtime.getRuntime().addShutdownHook(hook);
        write(ENTER);
    }

    /**
     * Takes over this process's terminal through JLine's FFM provider (the C library through the
     * JDK's foreign function API, nothing to unpack); the exec provider ({@code stty}) is the
     * fallback. Named, not left to JLine's own order, which also tries the JNI provider and
     * unpacks its native library into the temporary directory on the way.
     */
    static TerminalSession open(Map<String, String> env) throws IOException {
        Terminal t;
        try {
            t = TerminalBuilder.builder().system(true).dumb(false).provider("ffm").build();
        } catch (IOException | RuntimeException | LinkageError ffmUnavailable) {
            t = TerminalBuilder.builder().system(true).dumb(false).provider("exec").build();
        }
        try {
            return new TerminalSession(t, colour(env, t));
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    /**
     * Colour only where the terminal has it and {@code NO_COLOR} (any non-empty value) does not
     * forbid it. Terminal descriptions JLine lacks fall back to what {@code TERM} says.
     */
    static boolean colour(Map<String, String> env, Terminal t) {
        String noColour = env.get("NO_COLOR");
        if (noColour != null && !noColour.isEmpty()) {
            return false;
        }
        Integer colours = t == null ? null : t.getNumericCapability(InfoCmp.Capability.max_colors);
        if (colours != null) {
            return colours >= 8;
        }
        String term = env.getOrDefault("TERM", "");
        return term.contains("color") || term.startsWith("xterm") || term.startsWith("screen")
                || term.startsWith("tmux") || term.startsWith("rxvt") || term.equals("linux");
    }

    boolean colour() {
        return colour;
    }

    Size size() {
        Size s = terminal.getSize();
        return new Size(s.getColumns() > 0 ? s.getColumns() : 80, s.getRows() > 0 ? s.getRows() : 24);
    }

    /** UTF-8 output: the truncation mark can be {@code …}. */
    boolean unicode() {
        return terminal.outputEncoding() != null && terminal.outputEncoding().name().toUpperCase(java.util.Locale.ROOT)
                .contains("UTF");
    }

    /** The next character within {@code timeoutMillis}, as {@link KeyDecoder.Source} wants it. */
    int read(long timeoutMillis) {
        try {
            int c = terminal.reader().read(timeoutMillis);
            return c == org.jline.utils.NonBlockingReader.READ_EXPIRED ? KeyDecoder.Source.TIMEOUT
                    : c < 0 ? KeyDecoder.Source.END : c;
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            return KeyDecoder.Source.TIMEOUT;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes to the screen, unless it was given back already (then nothing may be drawn on the main screen). */
    void write(String s) {
        synchronized (screen) {
            if (!left) {
                terminal.writer().write(s);
                terminal.writer().flush();
            }
        }
    }

    /**
     * Leaves the alternate screen, shows the cursor and stops mouse reports, once. Written to
     * the process's stdout directly: JLine's writer may already be closed by its own hook.
     */
    private void leaveScreen() {
        synchronized (screen) {
            if (left) {
                return;
            }
            left = true;
            try {
                @SuppressWarnings("resource") // stdout stays open: it is the process's
                java.io.FileOutputStream out = new java.io.FileOutputStream(java.io.FileDescriptor.out);
                out.write(LEAVE.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException gone) {
                // the terminal hung up: there is no screen left to restore
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            leaveScreen();
            terminal.setAttributes(saved);
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is ending: the hook has run or runs now, and does the same
        } finally {
            try {
                terminal.close();
            } catch (IOException ignored) {
                // the terminal went away (hung up): nothing left to restore
            }
        }
    }
}
