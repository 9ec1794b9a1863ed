package nvidb.tui.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import nvidb.core.api.Event;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries.JobDetail;
import nvidb.core.api.Sizes;
import nvidb.core.api.Times;
import nvidb.core.view.JobUsage;
import nvidb.core.view.StoredJson;
import nvidb.core.view.VramSources;
import nvidb.tui.model.LowerPane;

/** The pane under the table: the selected job's detail (Enter) or the tail of its log (L). */
final class LowerView {
    private LowerView() {
    }

    static List<Line> lines(LowerPane pane, Job job, JobDetail detail, String log, String error, Map<Long, Job> known,
                            int scroll, int width, int height, Instant now) {
        List<Line> out = new ArrayList<>();
        String what = pane == LowerPane.DETAIL ? "detail" : pane == LowerPane.STDOUT ? "stdout" : "stderr";
        String title = job == null ? "no job selected" : "job " + job.id() + (job.name().isEmpty() ? "" : " " + Text.clean(job.name()))
                + ": " + what;
        String rule = "-- " + title + " ";
        out.add(Line.of(rule + "-".repeat(Math.max(0, width - 1 - Text.width(rule))), Style.HEADING));
        if (job == null) {
            return out;
        }
        List<Line> body = new ArrayList<>();
        if (error != null) {
            body.add(Line.of(" " + Text.clean(error), Style.ERROR));
        }
        int room = Math.max(0, height - 1 - body.size());
        if (pane == LowerPane.DETAIL) {
            List<Line> all = detail(detail == null ? job : detail.job(), detail, known, now);
            int from = Math.min(scroll, Math.max(0, all.size() - room)); // [ and ] page from the top
            body.addAll(all.subList(from, Math.min(all.size(), from + room)));
        } else if (log == null) {
            body.add(Line.of(" reading the log...", Style.DIM));
        } else {
            List<String> logLines = log.lines().map(Text::clean).toList();
            if (logLines.isEmpty()) {
                body.add(Line.of(" (empty)", Style.DIM));
            }
            int end = Math.max(Math.min(room, logLines.size()), logLines.size() - scroll); // [ and ] page from the end
            int from = Math.max(0, end - room);
            logLines.subList(from, end).forEach(l -> body.add(Line.of(" " + l)));
        }
        out.addAll(body.subList(0, Math.min(body.size(), height - 1)));
        return out;
    }

    private static List<Line> detail(Job j, JobDetail detail, Map<Long, Job> known, Instant now) {
        List<Line> out = new ArrayList<>();
        out.add(new Line().add(" " + j.displayState(), JobTable.stateStyle(j))
                .add("  priority " + j.priority() + "  attempt " + j.attempt() + "/" + (j.maxRetries() + 1)
                        + "  submitted " + Text.age(j.createdAt(), now) + " ago by "
                        + Text.clean(j.submitter() == null ? "-" : j.submitter())));
        out.add(Line.of(" command: " + Text.clean(j.command())));
        String where = JobTable.place(j);
        out.add(Line.of(" place: " + where + "  vram " + (j.vramMb() > 0 ? Sizes.format(j.vramMb()) : "-")
                + "  used " + (j.gpuMemMb() == null ? "-" : Sizes.format(j.gpuMemMb().longValue())) + JobUsage.measured(j)
                + (j.startedAt() == null ? "" : "  elapsed " + Times.duration(j.elapsedSeconds(now)))
                + (j.exitCode() == null ? "" : "  exit " + j.exitCode())));
        String source = VramSources.describe(StoredJson.parsed(j.learned().vramSource()));
        if (!source.isEmpty() || j.learned().failure() != null) {
            out.add(Line.of(" vram: " + (source.isEmpty() ? "-" : source)
                    + (j.learned().failure() == null ? "" : "  failure: " + j.learned().failure())));
        }
        if (j.notes() != null && !j.notes().isBlank()) {
            j.notes().lines().forEach(l -> out.add(Line.of(" note: " + Text.clean(l))));
        }
        if (!j.dependsOn().isEmpty()) {
            out.add(Line.of(" after: " + deps(j.dependsOn(), known)));
        }
        if (!j.dependsAny().isEmpty()) {
            out.add(Line.of(" after any: " + deps(j.dependsAny(), known)));
        }
        if (j.held()) {
            out.add(Line.of(" held: " + Text.clean(j.heldReason()), Style.HELD));
        }
        if (j.waiting() != null) {
            out.add(Line.of(" waiting: " + Text.clean(j.waiting()), Style.HELD));
        }
        if (j.lastError() != null && !j.lastError().isBlank()) {
            out.add(Line.of(" last error: " + Text.clean(j.lastError()), Style.ERROR));
        }
        if (j.progress() != null && !j.progress().isBlank()) {
            out.add(Line.of(" progress: " + Text.clean(j.progress())));
        }
        if (j.resultJson() != null) {
            out.add(Line.of(" result: " + Text.clean(j.resultJson())));
        }
        if (detail == null) {
            out.add(Line.of(" reading the events...", Style.DIM));
            return out;
        }
        out.add(Line.of(" events:", Style.BOLD));
        for (Event e : detail.events()) {
            out.add(Line.of("   " + Times.iso(e.ts()).substring(11, 19) + "  " + Text.fit(e.kind(), 16) + " "
                    + (e.node() == null ? "" : e.node() + ": ") + Text.clean(e.message())));
        }
        return out;
    }

    /** Each dependency with its state where this view knows it: {@code 3 completed, 4 running}. */
    private static String deps(List<Long> ids, Map<Long, Job> known) {
        return ids.stream().map(id -> {
            Job d = known.get(id);
            return id + (d == null ? "" : " " + d.displayState());
        }).collect(Collectors.joining(", "));
    }
}
