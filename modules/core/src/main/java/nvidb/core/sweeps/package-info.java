/**
 * Sweeps: one command run over a grid, zipped lists, random draws or a params file of parameters.
 * {@code SweepPlan} expands the parameters into runs, {@code CommandTemplate} renders each run's
 * command (placeholders, quoted for the place a value goes), and {@code SweepService}
 * ({@link nvidb.core.api.Sweeps}) makes the sweep and every run in one transaction through the
 * jobs' {@code Submission}, follows, cancels and requeues them, and ranks their results
 * ({@code ResultMetrics}). {@code SweepService} is its one public class. It stands on
 * {@code nvidb.core.jobs} and {@code nvidb.core.operation} and the store; the scheduler's limit on
 * parallel runs ({@code SweepLimits}) reads the store, not this package.
 */
package nvidb.core.sweeps;
