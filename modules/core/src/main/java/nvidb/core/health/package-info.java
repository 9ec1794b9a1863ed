/**
 * {@code nvidb doctor}: what a queue host needs, checked in the order a person would fix it
 * (configuration, database, free space, each node, what keeps the queue moving, backups), and what
 * counts as healthy, a warning or a failure, decided once. {@code Doctor} checks the queue host,
 * {@code NodeCheckup} every node in one round trip each. It opens the queue
 * ({@code nvidb.core.queue}) and reads the backups' directory ({@code nvidb.core.backup}) and the
 * keeper's state; only {@code nvidb.core.access} uses it.
 */
package nvidb.core.health;
