package nvidb.cli.context;

/** Ctrl-C while a command waits: ends the command with exit code 130. */
public final class Interrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;
}
