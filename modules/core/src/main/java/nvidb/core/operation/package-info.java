/**
 * What every user operation of one open queue stands on: {@link nvidb.core.operation.ServiceContext}
 * (the store, the configuration, the node connections, the one lifecycle, the lease and the queue's
 * tick, with the few lookups several groups need, such as what a typed node name means), and
 * {@link nvidb.core.operation.OperationLease}, the scheduler lease an operation takes so that it
 * never interleaves with a pass. The groups of operations ({@code jobs}, {@code lanes},
 * {@code sweeps}, {@code nodes}, {@code backup}) stand on it; it uses only what lies below them
 * (store, config, node, lifecycle, scheduler, util) and names none of them, nor the queue that
 * makes it.
 */
package nvidb.core.operation;
