package nvidb.core.api;

import java.util.Locale;
import java.util.Objects;

/**
 * Who asks for an operation: the OS account running the process that asks (read from the OS by
 * the JDK, never from an environment variable), the free label a client submits under
 * ({@code NVIDB_SUBMITTER}, {@code --submitter}, else {@code user@host:pid}), and the front end it
 * came through. Every operation of the application layer takes one; the events an operation
 * writes record it. Rules about who may do what belong where it is read, once for every front end.
 */
public record Caller(String account, String submitter, FrontEnd via) {
    /** The door an operation came in by. */
    public enum FrontEnd {
        CLI, TUI, WEB, MCP, DAEMON;

        /** As events record it: {@code cli}, {@code tui}, … */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Caller {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(submitter, "submitter");
        Objects.requireNonNull(via, "via");
    }

    /** The operations of this thread run for this caller while it is bound: the events they write record it. */
    public static final ScopedValue<Caller> ACTING = ScopedValue.newInstance();

    /** This process's OS account asking through {@code via} under the label {@code submitter}. */
    public static Caller of(FrontEnd via, String submitter) {
        return new Caller(osAccount(), submitter, via);
    }

    /**
     * The account this process runs as: the name the password database gives the process's real
     * uid (getpwuid, through the JDK's {@code UnixSystem}), never an environment variable or a
     * system property ({@code -Duser.name} in {@code JAVA_TOOL_OPTIONS} would set the JDK's
     * {@code user.name}). A uid with no entry is {@code #<uid>}; off Unix, {@code user.name}.
     */
    public static String osAccount() {
        String vouched = vouchedAccount;
        return vouched != null ? vouched : processAccount();
    }

    /**
     * The OS account this process runs as, whatever {@link #vouch} said: what decides whether a
     * vouched identity is honoured (the shared account must own the queue it acts on).
     */
    public static String processAccount() {
        String account = cachedAccount;
        if (account == null) {
            account = readOsAccount();
            cachedAccount = account;
        }
        return account;
    }

    private static volatile String cachedAccount;
    private static volatile String vouchedAccount;

    /**
     * The shared account's login entry ({@code nvidb queue users login NAME}, the forced command of
     * one key in its {@code authorized_keys}) vouches that this process acts for {@code account}:
     * from then on {@link #osAccount()}, and so every caller of this process, is that user. Once per
     * process, and only that entry calls it: no environment variable, option or system property
     * reaches it. Whether the queue honours it is decided where the queue's files are opened (the
     * process's own account must own them, see {@code nvidb.core.access.VouchedLogin}).
     */
    public static synchronized void vouch(String account) {
        Objects.requireNonNull(account, "account");
        if (vouchedAccount != null && !vouchedAccount.equals(account)) {
            throw new IllegalStateException("this process already acts for " + vouchedAccount);
        }
        vouchedAccount = account;
    }

    /** The user the login entry vouched for, or null: the process is its OS account's own. */
    public static String vouched() {
        return vouchedAccount;
    }

    private static String readOsAccount() {
        try {
            com.sun.security.auth.module.UnixSystem unix = new com.sun.security.auth.module.UnixSystem();
            String name = unix.getUsername();
            return name != null && !name.isEmpty() ? name : "#" + unix.getUid();
        } catch (UnsatisfiedLinkError | RuntimeException notUnix) {
            return System.getProperty("user.name", "?");
        }
    }

    /** The caller bound to this thread's operation, or null (a scheduler pass on its own). */
    public static Caller acting() {
        return ACTING.isBound() ? ACTING.get() : null;
    }
}
