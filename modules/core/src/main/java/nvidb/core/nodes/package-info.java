/**
 * The nodes as a person administers them ({@link nvidb.core.api.NodeAdmin}): each node with its
 * GPUs as the last pass saw them, and draining, resuming, ignoring and unignoring one. Jobs already
 * running on a node are never touched here. What is sent to a node and how its answers are read is
 * {@code nvidb.core.node}'s; this package stands on {@code nvidb.core.operation} and the store.
 */
package nvidb.core.nodes;
