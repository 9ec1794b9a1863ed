package nvidb.cli.context;

/** The root command, as commands see it: the holder of this command line's context. */
public interface ContextHolder {
    CliContext context();
}
