package nvidb.cli.output;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import nvidb.core.api.ErrorCode;
import nvidb.core.api.Json;
import nvidb.core.view.ErrorView;

/**
 * Where a command's words go. With {@code --json} every outcome is exactly one JSON document on
 * stdout, errors included; without it, text on stdout and errors as {@code error: …} on stderr.
 * The only place that touches the process's standard streams.
 */
public final class Output {
    private final PrintStream out;
    private final PrintStream err;
    private boolean json;
    private boolean lines;
    private boolean terminal;

    public Output(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The process's own stdout and stderr, UTF-8 whatever the locale says. */
    public static Output system() {
        Output output = new Output(new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8),
                new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        output.setTerminal(System.console() != null);
        return output;
    }

    /** Whether a person watches at a terminal: long waits then show a status line on stderr. */
    public boolean terminal() {
        return terminal;
    }

    /** Set from the process's console, or, for a forwarded command, from the client's. */
    public void setTerminal(boolean terminal) {
        this.terminal = terminal;
    }

    public void setJson(boolean json) {
        this.json = json;
    }

    public boolean json() {
        return json;
    }

    /**
     * Switches a streaming command ({@code job logs -f}, {@code queue tick --watch}) to JSON Lines:
     * from now on every document, an error included, is one compact line, so the stream stays
     * one complete document per line whatever ends it.
     */
    public void startLines() {
        lines = true;
    }

    /**
     * Prints one JSON document, a view record of {@code nvidb.core.view}: pretty (two-space indent)
     * and a newline, or one line in a stream. Written whole before printing, so a failure never
     * leaves half a document.
     */
    public void document(Object view) {
        out.print(lines ? Json.write(view) : Json.pretty(view));
        out.print('\n');
        out.flush();
    }

    /**
     * Prints a document whose parts are read while it is written (a job listing, the status): the
     * same bytes as {@link #document}, never held whole. A refusal before the generator's first
     * buffer went out (an unknown node) prints nothing of it; a failure later leaves it unfinished,
     * and the error document follows, so no reader takes a cut listing for a whole one.
     */
    public void streamed(Object view) {
        try {
            com.fasterxml.jackson.core.JsonGenerator g = StandardCharsets.UTF_8.equals(out.charset())
                    ? Json.generator(out, !lines) : Json.generator(new java.io.OutputStreamWriter(out, out.charset()), !lines);
            Json.write(g, view);
            g.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        out.print('\n');
        out.flush();
    }


    /** A line of human text on stdout. */
    public void line(String text) {
        out.println(text);
    }

    /** Raw text on stdout (logs), unchanged. */
    public void raw(String text) {
        out.print(text);
        out.flush();
    }

    /** A line for a person watching, on stderr, never mixed into JSON. */
    public void note(String text) {
        err.println(text);
        err.flush();
    }

    /** Reports an error the way the mode asks; returns the exit code to end with. */
    public int error(ErrorCode code, String message) {
        if (json) {
            document(ErrorView.of(code, message));
        } else {
            err.println("error: " + message);
            err.flush();
        }
        return code.exitCode();
    }

    public PrintStream err() {
        return err;
    }

    public PrintStream out() {
        return out;
    }
}
