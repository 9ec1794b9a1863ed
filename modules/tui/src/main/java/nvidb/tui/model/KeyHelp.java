package nvidb.tui.model;

import java.util.List;

/** The keys, as the help screen ({@code ?}) lists them; docs/tui.md says the same. */
public final class KeyHelp {
    public record Entry(String keys, String what) {
    }

    public static final List<Entry> ENTRIES = List.of(
            new Entry("j k  Down Up", "select the next / previous row (the mouse wheel too; a click selects)"),
            new Entry("PgDn PgUp", "ten rows down / up"),
            new Entry("g G", "first / last row"),
            new Entry("Tab", "jobs -> nodes -> lanes"),
            new Entry("Enter", "the selected job's detail: note, dependencies, events, last error; unfolds a sweep's line"),
            new Entry("Left", "folds the selected run's sweep back into one line"),
            new Entry("L", "the selected job's log: stdout, then stderr, then closed"),
            new Entry("[ ]", "page the detail or log up / down"),
            new Entry("c c", "cancel the selected job (twice within 5 s; Esc aborts)"),
            new Entry("r", "requeue the selected job, then a pass"),
            new Entry("+ = -", "priority +1 / -1"),
            new Entry("K J", "move a pending job one place earlier / later (Shift-Up / Shift-Down)"),
            new Entry("s S", "sort by the next column / reverse (a click on a heading sorts by it)"),
            new Entry("f", "filter: active -> all -> running -> pending -> finished"),
            new Entry("p", "GPU processes: summary -> all -> off"),
            new Entry("t", "a scheduler pass now"),
            new Entry("a", "auto-tick on / off (a pass every refresh)"),
            new Entry("d", "drain / resume the selected node (or the selected job's node)"),
            new Entry("A", "acknowledge every open alert"),
            new Entry("?", "this help"),
            new Entry("q", "quit (Ctrl-C too)"));

    private KeyHelp() {
    }
}
