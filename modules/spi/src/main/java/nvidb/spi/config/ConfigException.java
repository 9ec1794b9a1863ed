package nvidb.spi.config;

/**
 * A configuration mistake: the file and line it was written on, the key, and what would be right.
 * The message reads {@code configuration FILE, line N: KEY PROBLEM} (or {@code configuration: KEY
 * PROBLEM} for a value no file wrote), the form every configuration error of nvidb takes; core
 * reports it as a usage error (exit 64) and stops before doing anything else.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String key;
    private final String problem;

    /**
     * @param at      the value that is wrong (its file and line are named), or null where none was written
     * @param key     the dotted key as a user finds it in the file ({@code servers[0].auth})
     * @param problem what is wrong and what would be right ({@code must be true or false, not value 'x'})
     */
    public ConfigException(ConfigValue at, String key, String problem) {
        super(where(at) + ": " + key + " " + problem);
        this.file = at == null ? null : at.file();
        this.line = at == null ? 0 : at.line();
        this.key = key;
        this.problem = problem;
    }

    private static String where(ConfigValue at) {
        return at == null || at.file() == null ? "configuration" : "configuration " + at.file() + ", line " + at.line();
    }

    /** The file the wrong value was written in, or null. */
    public String file() {
        return file;
    }

    /** The 1-based line of the wrong value, 0 where unknown. */
    public int line() {
        return line;
    }

    public String key() {
        return key;
    }

    public String problem() {
        return problem;
    }
}
