package nvidb.core.api;

import java.util.List;

/**
 * The node side of lanes: a lane's runner as it last answered, switching it on or off, stopping
 * or replacing it, and taking a staged job back from it. The job itself is never signalled here.
 */
public interface LaneRunners {
    /**
     * {@code lane L runner}: what the node side of the lane is doing, as its last answer said.
     *
     * @param running the jobs the runner runs now (job ids)
     * @param staged  the jobs handed to it and not yet started (job ids)
     */
    record RunnerStatus(LaneRecord lane, boolean up, Integer pid, List<Long> running, List<Long> staged,
                        String waiting, String blocked) {
        public RunnerStatus {
            running = List.copyOf(running);
            staged = List.copyOf(staged);
        }
    }

    RunnerStatus runner(String typed);

    /** What a runner control did: {@code stopped} when a live runner was told. */
    record RunnerControl(LaneRecord lane, boolean stopped, boolean hard, TickSummary tick) {
    }

    /**
     * Switches the lane's runner on (then a forced pass starts one when the lane has work) or off
     * (a live runner is told to stop once its job is done; the controller then starts the lane's
     * jobs itself). A node that cannot be reached now is told at a later pass.
     */
    RunnerControl setRunner(String typed, boolean on, TickMode after);

    /**
     * Stops the lane's runner: its staged specs are withdrawn and it exits once its job is done
     * ({@code hard}: at once). Never signals a job. The next pass that has work for the lane
     * starts a runner again.
     */
    RunnerControl stop(String typed, boolean hard);

    /**
     * Replaces the lane's runner: the old one exits at its next safe point ({@code hard}: is
     * terminated now), then a forced pass starts a new one, which adopts the job the old one
     * started. The job itself is never touched.
     */
    RunnerControl restart(String typed, boolean hard, TickMode after);
}
