package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import nvidb.core.app.NoteChange;
import nvidb.core.view.JobDocuments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "note", mixinStandardHelpOptions = true, description = {
        "Read or write a job's note: what it is for and what would make it a success.",
        "  nvidb job note 12                       read",
        "  nvidb job note 12 new text              replace",
        "  nvidb job note 12 --append \"more\"       append (joined with ' | ')",
        "  nvidb job note 12 --clear               remove"})
public final class JobNote extends BaseCommand {
    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Parameters(index = "1..*", paramLabel = "TEXT", description = "New note text (words joined by one space).")
    List<String> text = new ArrayList<>();

    @Option(names = "--append", paramLabel = "TEXT", description = "Add to the note instead of replacing it.")
    String append;

    @Option(names = "--clear", description = "Remove the note.")
    boolean clear;

    @Override
    protected int execute() {
        long jobId = nvidb.core.api.Ids.parse(id);
        NoteChange change = NoteChange.of(text, append, clear);
        if (change.reads()) {
            JobDocuments.Note note = ctx().app().jobOps().note(ctx().caller(), jobId);
            if (json()) {
                out().document(note);
            } else {
                out().line(note.notes() == null ? "(no note)" : note.notes());
            }
            return 0;
        }
        JobDocuments.Noted job = ctx().app().jobOps().setNote(ctx().caller(), jobId, change.text(), change.append());
        if (json()) {
            out().document(job);
        } else {
            out().line("job " + job.id() + " note: " + (job.notes() == null ? "(cleared)" : job.notes()));
        }
        return 0;
    }
}
