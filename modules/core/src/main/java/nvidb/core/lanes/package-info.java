/**
 * Lanes: a GPU's (or several GPUs') own ordered queue of jobs. {@code Lanes} says which lane a
 * typed name means (created on first use of {@code node:gpu}) and keeps the queued jobs' order;
 * {@code LaneOrderService} is every way a person reorders a lane, {@code LaneQueryService} reads
 * them and words why a lane waits, {@code LaneRunnerService} is their node side (a lane's runner:
 * on, off, stopped, a staged job taken back). It stands on {@code nvidb.core.operation}, the store,
 * the node scripts and the scheduler's {@code LaneReadiness}; jobs use it (a submit into a lane, a
 * cancel that takes a job back from its runner), and it names no other group.
 */
package nvidb.core.lanes;
