/**
 * Jobs as a person handles them: {@code Submission}, the one way a job is made (for
 * {@code job submit} and for every run of a sweep), {@code JobCommandService} (submit, cancel,
 * requeue, release, purge, acknowledge), {@code JobEditService} (note, result, priority, place in
 * the dispatch order, dependencies) and {@code JobQueryService} (jobs, events, alerts, logs). Every
 * change of a job's state goes through {@code nvidb.core.lifecycle}. It stands on
 * {@code nvidb.core.operation}, the store and the scheduler, and on {@code nvidb.core.lanes} for a
 * job in a lane; sweeps use it.
 */
package nvidb.core.jobs;
