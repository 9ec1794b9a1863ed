package nvidb.core.store;

import java.util.Optional;
import nvidb.core.util.Hostname;
import nvidb.core.util.Nonce;

/**
 * Who holds a lease: the owner string is {@code host:pid:…}, so a lease says which process on
 * which machine took it. A holder on this machine whose process no longer exists was killed
 * (SIGKILL, power cut of a container) and cannot release; its lease need not block until expiry.
 */
record LeaseHolder(String host, long pid) {
    /** A fresh owner for this process: {@code host:pid:random}, unique per holder object. */
    static String ownerForThisProcess() {
        return Hostname.get() + ":" + ProcessHandle.current().pid() + ":" + Nonce.hex(32);
    }

    /** The host and pid an owner names; empty for an owner in another form (then only expiry frees it). */
    static Optional<LeaseHolder> of(String owner) {
        if (owner == null) {
            return Optional.empty();
        }
        String[] parts = owner.split(":", 3);
        if (parts.length < 3 || parts[0].isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LeaseHolder(parts[0], Long.parseLong(parts[1])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * True only when the holder ran on this machine and its process is gone. A holder elsewhere
     * cannot be checked and is waited for; a reused pid reads as alive, which only errs towards waiting.
     */
    boolean goneFromThisHost() {
        return host.equals(Hostname.get()) && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }
}
