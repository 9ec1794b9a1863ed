package nvidb.mcp;

import java.util.List;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobListing;
import nvidb.core.view.QueueDocuments;
import nvidb.core.view.StatusSummary;
import nvidb.core.view.SweepDocuments;
import nvidb.core.view.UsageDocuments;

/**
 * Every tool {@code nvidb mcp} and {@code /mcp} offer, each described for an agent with the
 * skill's advice where it applies, in the order an agent meets them. Which CLI command each
 * mirrors is the CLI's to say ({@link ToolParameters}): the arguments are that command's options.
 */
public final class Tools {
    private Tools() {
    }

    private static final String TICK = " Reads refresh from the nodes when the last refresh is a few seconds old"
            + " (tick: true forces it, no_tick: true reads the database only).";

    public static final List<Tool> ALL = List.of(
            new Tool("submit", "Submit a job", "Queue a job: it waits until a GPU has room for its VRAM, then runs"
                    + " detached on a node, and survives this session. Pass the command as a list of words"
                    + " (command: [\"python\", \"train.py\", \"--lr\", \"1e-4\"]) or one shell string. Always write a"
                    + " note (what it is for and what success looks like) so that the next session can judge it,"
                    + " and identify yourself with submitter where several sessions share the queue. Use"
                    + " idempotency_key when a retry must not queue it twice. gpus: 0 for CPU-only work; vram per GPU"
                    + " such as 20G, or auto to reserve what its earlier runs (same name, sweep or command) were"
                    + " measured to use (dry_run: true shows the figure and queues nothing). With wait: true it answers when the job ends (a wait_timeout running out is not"
                    + " a failure).", JobDocuments.Submitted.class, false, false, JobTools::submit),
            new Tool("sweep_submit", "Submit a sweep", "Queue one run of the command per parameter set, all at"
                    + " once (all runs or none): grid: [\"lr=1e-3,1e-4\"] makes the cross product, zip pairs lists,"
                    + " random/range draws. {name} in the command is the run's value. Every submit argument applies"
                    + " to every run; write a note. dry_run: true shows the runs without submitting.",
                    SweepDocuments.Submitted.class, false, false, JobTools::sweepSubmit),
            new Tool("jobs", "List jobs", "Jobs, newest first: filter by state (pending, running, completed, failed,"
                    + " cancelled, timeout, lost), active, held, node, tag or sweep; limit (default 100)." + TICK,
                    JobListing.class, true, false, JobTools::jobs),
            new Tool("job", "Show a job", "One job in full: state, exit code, node and GPUs, note, status line,"
                    + " result, held reason and its events; logs: N adds the last N lines of stdout." + TICK,
                    JobDocuments.Shown.class, true, false, JobTools::job),
            new Tool("logs", "Read a job's output", "The last lines (number, default 200) of a job's stdout, or"
                    + " stderr with stderr: true, read from its node. follow: true keeps reading until the job ends,"
                    + " each new piece arriving as a progress notification." + TICK,
                    JobDocuments.LogChunk.class, true, false, JobTools::logs),
            new Tool("wait", "Wait for jobs", "Block until the jobs (ids) end or timeout seconds pass, with a"
                    + " progress notification on every look (each job still going, its state and status line)."
                    + " outcome: 0 all completed, 1 one ended badly, 2 the timeout ran out with work still going"
                    + " (not a failure: the jobs keep running, wait again), 3 an id is unknown. Cancelling the"
                    + " request ends the wait, never the jobs.", Waits.Answer.class, true, false, JobTools::waitFor),
            new Tool("cancel", "Cancel jobs", "Cancel pending or running jobs (a running job's process group is"
                    + " killed); jobs waiting on them with after are held, not failed. Before cancelling a job"
                    + " another session or person submitted (see its submitter), ask the user to confirm.",
                    JobDocuments.Several.class, false, true, JobTools::cancel),
            new Tool("requeue", "Run jobs again", "Run finished jobs again, keeping note, tags and dependencies.",
                    JobDocuments.Several.class, false, false, JobTools::requeue),
            new Tool("priority", "Read or change a priority", "Read a job's priority, set it (value: \"5\"),"
                    + " adjust it (\"+1\", \"-2\"), or move a pending job up or down N slots in dispatch order.",
                    JobDocuments.Priority.class, false, false, JobTools::priority),
            new Tool("note", "Read or write a job's note", "Read a job's note, replace it (text), add to it"
                    + " (append) or remove it (clear). The note is how the next session knows what a job is for"
                    + " and what would make it a success: write one.", JobDocuments.Noted.class, false, false,
                    JobTools::note),
            new Tool("edit", "Change a job's dependencies", "Change what a pending or running job waits for"
                    + " (add_after, drop_after, add_after_any, drop_after_any); keeps its note, place and submitter.",
                    JobDocuments.Edited.class, false, false, JobTools::edit),
            new Tool("release", "Release held jobs", "Let a held job run without the prerequisites that ended badly"
                    + " (they are dropped from its after list). Never release a job whose prerequisite produced the"
                    + " input it reads.", JobDocuments.Several.class, false, false, JobTools::release),
            new Tool("result", "Read or set a job's result", "A job's result: its result.json, collected on"
                    + " completion; set stores any JSON value instead.", JobDocuments.Result.class, true, false,
                    JobTools::result),
            new Tool("events", "Catch up on the event log", "What happened while you were away, oldest first:"
                    + " pass the last_id of the previous call as since (0 while the log is empty); job: one job's"
                    + " events only.", QueueDocuments.Events.class, true, false, QueueTools::events),
            new Tool("alerts", "Open alerts", "What needs attention (failed jobs, lost nodes, memory pressure…);"
                    + " all: true includes acknowledged ones. Tell the user about each alert before acknowledging"
                    + " it." + TICK, QueueDocuments.Alerts.class, true, false, QueueTools::alerts),
            new Tool("ack", "Acknowledge alerts", "Acknowledge alerts (ids, or all: true) once they are understood."
                    + " Never acknowledge an alert the user has not seen.", QueueDocuments.Acked.class, false, false,
                    QueueTools::ack),
            new Tool("status", "The queue at a glance", "Job counts by state, every node with its per-GPU VRAM"
                    + " budget (memory held by processes the queue did not start counts), open alerts. Here summary"
                    + " is true unless you pass summary: false, which returns the whole document with every"
                    + " pending and running job (large on a busy queue: prefer the jobs tool)." + TICK,
                    StatusSummary.class, true, false, QueueTools::status),
            new Tool("nodes", "GPUs and their processes", "Per-GPU memory, utilisation and every process on each"
                    + " node, including work the queue did not start." + TICK, QueueDocuments.Nodes.class, true,
                    false, QueueTools::nodes),
            new Tool("lanes", "GPU lanes", "Every GPU lane: what it runs now, what is next, and why it waits." + TICK,
                    QueueDocuments.Lanes.class, true, false, QueueTools::lanes),
            new Tool("usage", "Who used what", "What the jobs that ran since a time used (since: 7d, 12h, 30m, an"
                    + " ISO date or time, or all; default 7d), a row per user, sweep, node or name (by) and a total:"
                    + " jobs, GPU-hours, VRAM GiB-hours reserved and at peak, idle GPU-hours, energy in kWh (null"
                    + " where unmeasured)." + TICK, UsageDocuments.Report.class, true, false, QueueTools::usage),
            new Tool("sweep", "Show a sweep", "One row per run of a sweep: parameters, state, exit code, status line"
                    + " and every numeric field of its result; metric (with min or max, sort) puts the best first."
                    + TICK, SweepDocuments.Shown.class, true, false, QueueTools::sweep),
            new Tool("doctor", "Check the queue's health", "Check what this queue needs to work: configuration,"
                    + " database, disk, each node over its transport, nvidia-smi, clocks, a daemon or keeper,"
                    + " backups. Each failure or warning says what to do.", QueueDocuments.Doctor.class, true, false,
                    QueueTools::doctor));

    /** The tools' names, in order. */
    public static final List<String> NAMES = ALL.stream().map(Tool::name).toList();
}
