package nvidb.mcp;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.Ids;
import nvidb.core.api.JobQuery;
import nvidb.core.api.JobState;
import nvidb.core.api.ShellQuote;
import nvidb.core.api.Sweeps;
import nvidb.core.api.TickMode;
import nvidb.core.app.Acted;
import nvidb.core.app.JobOperations;
import nvidb.core.app.NoteChange;
import nvidb.core.app.PriorityChange;
import nvidb.core.api.SubmitRequest;
import nvidb.core.app.SubmitInput;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobView;
import nvidb.core.view.SweepDocuments;

/**
 * The handlers of the job tools: each does what its CLI command does (the same operations of the
 * application layer, the same checks) and answers the document that command prints with
 * {@code --json}. Arguments are read by the names the CLI's model gives them.
 */
final class JobTools {
    private JobTools() {
    }

    /** The options {@code job submit} and {@code job sweep} share, as the application layer takes them. */
    static SubmitInput submitInput(ToolCall c) {
        ToolArguments a = c.args();
        String script = a.string("script");
        String submitter = a.string("submitter");
        return new SubmitInput(a.string("name"), a.string("vram"), a.integer("gpus", 1), a.string("node"),
                a.string("lane"), a.string("at"), a.string("note"), a.strings("after"), a.strings("after_any"),
                a.integer("timeout", null), a.integer("retries", 0), a.string("workdir"), a.strings("env"),
                a.integer("priority", 0), a.strings("tag"), script == null ? null : Path.of(script),
                submitter != null ? submitter : c.caller().submitter(), a.string("idempotency_key"),
                a.flag("no_burst"), a.integer("oom_retry", null), a.strings("command"));
    }

    static ToolOutcome submit(ToolCall c) {
        SubmitInput input = submitInput(c);
        List<String> words = input.words();
        JobOperations ops = c.app().jobOps();
        SubmitRequest request = input.request(ops, c.caller(), words.size() == 1 ? words.getFirst() : ShellQuote.join(words));
        if (c.args().flag("dry_run")) {
            JobDocuments.Previewed p = ops.preview(c.caller(), request);
            return ToolOutcome.ok(p, "dry run: would reserve " + p.vram() + " per GPU (" + p.vramSource().path("kind").asText()
                    + "); nothing was submitted");
        }
        JobDocuments.Submitted s = ops.submit(c.caller(), request, c.afterTick());
        boolean waitForIt = c.args().flag("wait");
        Integer waitTimeout = c.args().integer("wait_timeout", null);
        if (waitForIt && !JobState.fromLabel(s.job().state()).terminal()) {
            JobOperations.Waited waited = ops.await(c.caller(), List.of(s.job().id()), waitTimeout, TickMode.AUTO,
                    new WaitProgress(c.progress()));
            s = ops.afterWait(s, waited);
        }
        JobView job = s.job();
        return ToolOutcome.ok(s, (s.duplicate() ? "already submitted as job " : "submitted job ") + job.id() + " ("
                + (job.held() ? "held" : job.state()) + ")");
    }

    static ToolOutcome sweepSubmit(ToolCall c) {
        ToolArguments a = c.args();
        SubmitInput input = submitInput(c);
        List<String> words = input.words();
        String paramsFile = a.string("params_file");
        Sweeps.SweepRequest request = new Sweeps.SweepRequest(input.request(c.app().jobOps(), c.caller(), "-"), words,
                a.strings("grid"), a.strings("zip"), a.integer("random", null), a.longValue("seed"), a.strings("range"),
                paramsFile == null ? null : SubmitInput.paramsLines(Path.of(paramsFile)), paramsFile,
                a.integer("max_parallel", null), a.flag("force"));
        SweepDocuments.Submitted s = c.app().sweeps().submit(c.caller(), request, a.flag("dry_run"), c.afterTick());
        String summary = s.dryRun() ? "dry run: " + s.runs().size() + " run(s); nothing was submitted"
                : (s.duplicate() ? "already submitted as sweep " : "submitted sweep ") + s.sweep().id() + " ("
                + s.sweep().name() + "): " + s.runs().size() + " run(s)";
        return ToolOutcome.ok(s, summary);
    }

    static ToolOutcome jobs(ToolCall c) {
        ToolArguments a = c.args();
        Set<JobState> wanted = EnumSet.noneOf(JobState.class);
        if (a.flag("active")) {
            wanted.add(JobState.PENDING);
            wanted.add(JobState.RUNNING);
        }
        List<String> states = a.strings("state");
        if (!a.flag("active")) {
            states.forEach(s -> wanted.add(JobState.fromLabel(s)));
        }
        String sweep = a.string("sweep");
        JobQuery query = new JobQuery(wanted, a.flag("held"), a.string("node"), a.string("tag"),
                sweep == null ? null : Ids.parse(sweep), a.integer("limit", 100));
        c.app().tick(c.caller(), c.readTick());
        var listing = c.app().jobs(c.caller(), query);
        return ToolOutcome.ok(listing, null);
    }

    static ToolOutcome job(ToolCall c) {
        long id = Ids.parse(c.args().string("id"));
        Integer logs = c.args().integer("logs", null);
        c.app().tick(c.caller(), c.readTick());
        JobDocuments.Shown shown = c.app().job(c.caller(), id, logs);
        JobView j = shown.job();
        return ToolOutcome.ok(shown, "job " + j.id() + " " + (j.held() ? "held" : j.state())
                + (j.progress() == null ? "" : ": " + j.progress()));
    }

    static ToolOutcome logs(ToolCall c) {
        ToolArguments a = c.args();
        long id = Ids.parse(a.string("id"));
        int number = a.integer("number", 200);
        boolean stderr = a.flag("stderr");
        c.app().tick(c.caller(), c.readTick());
        JobDocuments.LogChunk chunk = c.app().logChunk(c.caller(), id, stderr, number);
        if (!a.flag("follow")) {
            return ToolOutcome.ok(chunk, null);
        }
        // Followed: each new piece of output is a progress notification; the answer is the log's last
        // lines once the job has ended, and how it ended.
        long[] step = {0};
        JobDocuments.LogEnd end = c.app().jobOps().follow(c.caller(), chunk, number, c.readTick(), more -> {
            if (!more.log().isEmpty()) {
                c.progress().report(++step[0], more.log());
            }
        });
        return ToolOutcome.ok(new Followed(c.app().logChunk(c.caller(), id, stderr, number), end),
                "job " + id + " ended " + end.state());
    }

    /** {@code logs} with {@code follow}: the last lines once the job has ended, and how it ended. */
    record Followed(JobDocuments.LogChunk log, JobDocuments.LogEnd end) {
    }

    static ToolOutcome waitFor(ToolCall c) {
        ToolArguments a = c.args();
        List<Long> ids = ids(a);
        Integer timeout = a.integer("timeout", null);
        if (timeout != null && timeout < 0) {
            throw nvidb.core.api.NvidbException.usage("timeout cannot be negative");
        }
        Integer logs = a.integer("logs", null);
        JobOperations ops = c.app().jobOps();
        JobOperations.Waited o = ops.waitFor(c.caller(), ids, timeout, c.readTick(),
                new WaitProgress(c.progress(), () -> stillGoing(c, ids)));
        JobDocuments.Waited doc = ops.waited(c.caller(), o, logs);
        int outcome = Waits.outcome(o);
        return ToolOutcome.ok(new Waits.Answer(doc, outcome), Waits.summary(o, outcome));
    }

    static ToolOutcome cancel(ToolCall c) {
        Acted<JobDocuments.Several<JobDocuments.Cancelled>> acted = c.app().cancel(c.caller(), ids(c.args()));
        long done = acted.document().results().stream().filter(JobDocuments.Cancelled::cancelled).count();
        return several(acted, "cancelled " + done + " of " + acted.document().results().size() + " job(s)");
    }

    static ToolOutcome requeue(ToolCall c) {
        Acted<JobDocuments.Several<JobDocuments.Requeued>> acted = c.app().requeue(c.caller(), ids(c.args()), c.afterTick());
        long done = acted.document().results().stream().filter(JobDocuments.Requeued::requeued).count();
        return several(acted, "requeued " + done + " of " + acted.document().results().size() + " job(s)");
    }

    static ToolOutcome release(ToolCall c) {
        Acted<JobDocuments.Several<JobDocuments.Released>> acted = c.app().jobOps().release(c.caller(), ids(c.args()),
                c.afterTick());
        return several(acted, acted.document().results().stream().map(r -> "job " + r.item().id() + ": " + r.reason())
                .reduce((x, y) -> x + "; " + y).orElse(""));
    }

    static ToolOutcome priority(ToolCall c) {
        ToolArguments a = c.args();
        long id = Ids.parse(a.string("id"));
        PriorityChange change = PriorityChange.of(a.string("value"), a.integer("up", null), a.integer("down", null));
        if (change.moves()) {
            JobDocuments.Moved moved = c.app().movePriority(c.caller(), id, change.slots());
            return ToolOutcome.ok(moved, "job " + id + (moved.moved() ? " moved to slot " : " not moved (already at slot ")
                    + moved.slot() + (moved.moved() ? "" : ")"));
        }
        JobDocuments.Priority p = c.app().priority(c.caller(), id, change.value());
        return ToolOutcome.ok(p, "job " + p.id() + " priority: " + p.priority());
    }

    static ToolOutcome note(ToolCall c) {
        ToolArguments a = c.args();
        long id = Ids.parse(a.string("id"));
        NoteChange change = NoteChange.of(a.strings("text"), a.string("append"), a.flag("clear"));
        if (change.reads()) {
            JobDocuments.Note note = c.app().jobOps().note(c.caller(), id);
            return ToolOutcome.ok(note, note.notes() == null ? "(no note)" : note.notes());
        }
        JobDocuments.Noted noted = c.app().jobOps().setNote(c.caller(), id, change.text(), change.append());
        return ToolOutcome.ok(noted, "job " + noted.id() + " note: " + (noted.notes() == null ? "(cleared)" : noted.notes()));
    }

    static ToolOutcome edit(ToolCall c) {
        ToolArguments a = c.args();
        JobDocuments.Edited edited = c.app().jobOps().editDependencies(c.caller(), Ids.parse(a.string("id")),
                Ids.parseLists(a.strings("add_after")), Ids.parseLists(a.strings("drop_after")),
                Ids.parseLists(a.strings("add_after_any")), Ids.parseLists(a.strings("drop_after_any")), c.afterTick());
        JobView j = edited.job();
        return ToolOutcome.ok(edited, "job " + j.id() + ": after=" + j.dependsOn() + " after_any=" + j.dependsAny()
                + (edited.changed() ? "" : " (unchanged)"));
    }

    static ToolOutcome result(ToolCall c) {
        ToolArguments a = c.args();
        long id = Ids.parse(a.string("id"));
        String set = a.string("set");
        c.app().tick(c.caller(), c.onRequestTick());
        JobOperations ops = c.app().jobOps();
        var job = set == null ? ops.result(c.caller(), id) : ops.setResult(c.caller(), id, set);
        return ToolOutcome.ok(JobOperations.resultDocument(job, set != null),
                job.resultJson() == null ? "job " + id + ": no result" : "job " + id + " result: " + job.resultJson());
    }

    /** The jobs among {@code ids} that exist and are still going. */
    private static List<nvidb.core.api.Job> stillGoing(ToolCall c, List<Long> ids) {
        List<nvidb.core.api.Job> going = new java.util.ArrayList<>();
        for (long id : ids.stream().distinct().toList()) {
            try {
                nvidb.core.api.Job j = c.app().jobOps().job(c.caller(), id);
                if (!j.state().terminal()) {
                    going.add(j);
                }
            } catch (nvidb.core.api.NvidbException unknown) {
                // reported in the answer's results[]
            }
        }
        return going;
    }

    /** The job ids of {@code ids} (each may be a comma list). */
    static List<Long> ids(ToolArguments a) {
        List<Long> ids = Ids.parseLists(a.strings("ids"));
        if (ids.isEmpty()) {
            throw nvidb.core.api.NvidbException.usage("name at least one job id");
        }
        return ids;
    }

    /** An operation on several ids: the document always; an error when one was refused or unknown. */
    static ToolOutcome several(Acted<?> acted, String summary) {
        return ToolOutcome.of(acted.document(), summary, acted.code(), acted.message());
    }
}
