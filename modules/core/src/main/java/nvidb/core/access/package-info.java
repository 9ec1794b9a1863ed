/**
 * Core's side of {@link nvidb.core.api.QueueAccess}, the one door every front end opens:
 * {@code CoreAccess} (found through {@link java.util.ServiceLoader} as
 * {@code CoreAccess.Provider}) resolves the paths, loads the plugins, reads the configuration and
 * opens, each on first use, the queue ({@code nvidb.core.queue}), the daemon
 * ({@code nvidb.core.daemon}), the keeper and the doctor ({@code nvidb.core.health}). It is the top
 * of core: nothing in core names it.
 */
package nvidb.core.access;
