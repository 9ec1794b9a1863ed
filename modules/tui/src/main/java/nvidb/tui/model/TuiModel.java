package nvidb.tui.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.Job;
import nvidb.core.api.JobQueries.JobDetail;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.NodeAdmin.NodeView;

/**
 * Everything the screen shows and the keys change, with no terminal in sight: the last snapshot,
 * what is selected, the pane, filter, sort and modes, the selected job's detail and log, and the
 * status line. {@link KeyBindings} changes it; the view draws it; workers feed it snapshots.
 * Used on the UI thread only.
 */
public final class TuiModel {
    private final double refreshSeconds;
    private Snapshot snapshot = Snapshot.EMPTY;
    private Pane pane = Pane.JOBS;
    private Filter filter = Filter.ACTIVE;
    private SortKey sort = SortKey.QUEUE;
    private boolean reversed;
    private ProcsMode procs = ProcsMode.SUMMARY;
    private LowerPane lower = LowerPane.NONE;
    private boolean help;
    private boolean autoTick = true;
    private Long selectedJob;
    private final java.util.Set<Long> unfoldedSweeps = new java.util.HashSet<>();
    private int jobIndex;
    private int nodeIndex;
    private int laneIndex;
    private int lowerScroll;
    private Long cancelArmed;
    private Instant cancelArmedAt;
    private Status status = Status.NONE;
    private JobDetail detail;
    private String log;
    private String lowerError;
    private Hits hits = Hits.NONE;
    private boolean ticking;
    private String refreshError;

    public TuiModel(double refreshSeconds) {
        this.refreshSeconds = refreshSeconds;
    }

    // --- fed by the workers -------------------------------------------------------------------

    /** A new snapshot; the selection stays on the same job, or on the same row when it is gone. */
    public void setSnapshot(Snapshot s) {
        this.snapshot = s;
        this.refreshError = null;
        settleSelection();
    }

    public void setRefreshError(String error) {
        this.refreshError = error;
    }

    public void setTicking(boolean ticking) {
        this.ticking = ticking;
    }

    /** The selected job's detail (events included), as read for {@code id}; ignored when the selection moved on. */
    public void setDetail(long id, JobDetail d) {
        if (selectedJob != null && selectedJob == id) {
            this.detail = d;
            this.lowerError = null;
        }
    }

    /** The selected job's log tail, as read for {@code id} and {@code pane}; ignored when either changed since. */
    public void setLog(long id, LowerPane pane, String text) {
        if (selectedJob != null && selectedJob == id && lower == pane) {
            this.log = text;
            this.lowerError = null;
        }
    }

    public void setLowerError(long id, String error) {
        if (selectedJob != null && selectedJob == id) {
            this.lowerError = error;
        }
    }

    public void setStatus(Status s) {
        this.status = s;
    }

    public void setHits(Hits hits) {
        this.hits = hits;
    }

    // --- read by the view and the controller ---------------------------------------------------

    /** The job table's rows: filtered, then in dispatch order or by the chosen column; a folded sweep as one row. */
    public List<Job> rows() {
        return sweepGroups().rows();
    }

    /** The rows with each folded sweep as its first run, and those sweeps. */
    public SweepGroups sweepGroups() {
        return SweepGroups.of(allRows(), unfoldedSweeps);
    }

    /** The folded sweep the selected row stands for, if it stands for one. */
    public Optional<SweepGroups.Group> selectedSweep() {
        return selectedJob == null ? Optional.empty() : Optional.ofNullable(sweepGroups().groups().get(selectedJob));
    }

    /** Unfolds a sweep: its runs become rows of their own. */
    public void unfold(long sweep) {
        unfoldedSweeps.add(sweep);
    }

    /** Folds the sweep of the selected run back into one line, which stays selected; false when it is no run of one. */
    public boolean foldSelected() {
        Long sweep = selected().map(SweepGroups::sweepOf).orElse(null);
        if (sweep == null || !unfoldedSweeps.remove(sweep)) {
            return false;
        }
        List<Job> rows = rows();
        for (int i = 0; i < rows.size(); i++) {
            if (sweep.equals(SweepGroups.sweepOf(rows.get(i)))) {
                select(rows, i);
                break;
            }
        }
        return true;
    }

    private List<Job> allRows() {
        List<Job> all = new ArrayList<>(snapshot.active());
        all.addAll(snapshot.finished());
        List<Job> ordered = DispatchOrder.of(all, snapshot.lanes(), snapshot.poolOrder());
        List<Job> rows = new ArrayList<>(ordered.stream().filter(filter::matches).toList());
        Comparator<Job> by = sort.comparator();
        if (by != null) {
            rows.sort(by);
        }
        if (reversed) {
            Collections.reverse(rows);
        }
        return rows;
    }

    public Optional<Job> selected() {
        return selectedJob == null ? Optional.empty() : snapshot.job(selectedJob).filter(filter::matches);
    }

    public Long selectedJobId() {
        return selectedJob;
    }

    public Optional<NodeView> selectedNode() {
        List<NodeView> nodes = snapshot.nodes();
        return nodes.isEmpty() ? Optional.empty() : Optional.of(nodes.get(Math.min(nodeIndex, nodes.size() - 1)));
    }

    public Optional<LaneView> selectedLane() {
        List<LaneView> lanes = snapshot.lanes();
        return lanes.isEmpty() ? Optional.empty() : Optional.of(lanes.get(Math.min(laneIndex, lanes.size() - 1)));
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public Pane pane() {
        return pane;
    }

    public Filter filter() {
        return filter;
    }

    public SortKey sort() {
        return sort;
    }

    public boolean reversed() {
        return reversed;
    }

    public ProcsMode procs() {
        return procs;
    }

    public LowerPane lower() {
        return lower;
    }

    public boolean help() {
        return help;
    }

    public boolean autoTick() {
        return autoTick;
    }

    public double refreshSeconds() {
        return refreshSeconds;
    }

    public int lowerScroll() {
        return lowerScroll;
    }

    public Status status() {
        return status;
    }

    public JobDetail detail() {
        return detail != null && selectedJob != null && detail.job().id() == selectedJob ? detail : null;
    }

    public String log() {
        return log;
    }

    public String lowerError() {
        return lowerError;
    }

    public Hits hits() {
        return hits;
    }

    public boolean ticking() {
        return ticking;
    }

    public String refreshError() {
        return refreshError;
    }

    /** The job a second {@code c} would cancel, while the first one is fresh. */
    public Long cancelArmed(Instant now) {
        return cancelArmed != null && now.isBefore(cancelArmedAt.plus(KeyBindings.CANCEL_WINDOW)) ? cancelArmed : null;
    }

    // --- changed by KeyBindings ---------------------------------------------------------------

    void moveJob(int delta) {
        List<Job> rows = rows();
        if (rows.isEmpty()) {
            return;
        }
        int at = indexOfSelected(rows);
        select(rows, Math.max(0, Math.min(rows.size() - 1, (at < 0 ? 0 : at) + delta)));
    }

    void selectJobRow(int index) {
        List<Job> rows = rows();
        if (!rows.isEmpty()) {
            select(rows, Math.max(0, Math.min(rows.size() - 1, index)));
        }
    }

    void selectJob(long id) {
        List<Job> rows = rows();
        int at = Cycles.indexOf(rows, j -> j.id() == id);
        if (at >= 0) {
            select(rows, at);
        }
    }

    void moveNode(int delta) {
        nodeIndex = clamp(nodeIndex + delta, snapshot.nodes().size());
    }

    void selectNode(String name) {
        int at = Cycles.indexOf(snapshot.nodes(), n -> n.node().name().equals(name));
        nodeIndex = at >= 0 ? at : nodeIndex;
    }

    void moveLane(int delta) {
        laneIndex = clamp(laneIndex + delta, snapshot.lanes().size());
    }

    void selectLane(String name) {
        int at = Cycles.indexOf(snapshot.lanes(), l -> l.lane().name().equals(name));
        laneIndex = at >= 0 ? at : laneIndex;
    }

    void setPane(Pane p) {
        pane = p;
    }

    void setFilter(Filter f) {
        filter = f;
        settleSelection();
    }

    void setSort(SortKey key, boolean reverse) {
        sort = key;
        reversed = reverse;
    }

    void setProcs(ProcsMode p) {
        procs = p;
    }

    void setLower(LowerPane p) {
        if (p != lower) {
            lower = p;
            lowerScroll = 0;
            log = null;
            lowerError = null;
        }
    }

    void scrollLower(int delta) {
        lowerScroll = Math.max(0, lowerScroll + delta);
    }

    void setHelp(boolean on) {
        help = on;
    }

    void setAutoTick(boolean on) {
        autoTick = on;
    }

    void armCancel(Long id, Instant at) {
        cancelArmed = id;
        cancelArmedAt = at;
    }

    private void settleSelection() {
        List<Job> rows = rows();
        if (rows.isEmpty()) {
            return;
        }
        int at = indexOfSelected(rows);
        select(rows, at >= 0 ? at : Math.min(jobIndex, rows.size() - 1));
        nodeIndex = clamp(nodeIndex, snapshot.nodes().size());
        laneIndex = clamp(laneIndex, snapshot.lanes().size());
    }

    private int indexOfSelected(List<Job> rows) {
        Long id = selectedJob;
        return id == null ? -1 : Cycles.indexOf(rows, j -> j.id() == id);
    }

    private void select(List<Job> rows, int index) {
        Long before = selectedJob;
        jobIndex = index;
        selectedJob = rows.get(index).id();
        if (!selectedJob.equals(before)) {
            detail = null;
            log = null;
            lowerError = null;
            lowerScroll = 0;
        }
    }

    private static int clamp(int i, int size) {
        return size == 0 ? 0 : Math.max(0, Math.min(size - 1, i));
    }
}
