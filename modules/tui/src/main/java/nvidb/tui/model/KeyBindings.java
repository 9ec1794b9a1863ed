package nvidb.tui.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import nvidb.core.api.Job;
import nvidb.core.api.JobState;
import nvidb.core.api.LaneQueries.LaneView;
import nvidb.core.api.NodeAdmin.NodeView;

/**
 * What each key does: it changes the {@link TuiModel} and may ask for {@link Action}s, which the
 * caller carries out off the UI thread. The keys are those of {@link KeyHelp}.
 */
public final class KeyBindings {
    /** How long a first {@code c} waits for the second that cancels. */
    public static final Duration CANCEL_WINDOW = Duration.ofSeconds(5);
    static final int PAGE = 10;
    static final int WHEEL = 3;

    private final TuiModel m;

    public KeyBindings(TuiModel model) {
        this.m = model;
    }

    /** Handles one key at {@code now}; returns what the queue should do, often nothing. */
    public List<Action> handle(Key key, Instant now) {
        if (m.help() && key.kind() != Key.Kind.CTRL_C && !key.is('q')) {
            m.setHelp(false); // any key closes the help
            return List.of();
        }
        Long armed = m.cancelArmed(now);
        if (!key.is('c') && armed != null) {
            m.armCancel(null, null);
            m.setStatus(Status.info("cancel of job " + armed + " aborted", now));
            if (key.kind() == Key.Kind.ESC) {
                return List.of();
            }
        }
        return switch (key.kind()) {
            case UP -> move(-1);
            case DOWN -> move(1);
            case PAGE_UP -> move(-PAGE);
            case PAGE_DOWN -> move(PAGE);
            case HOME -> move(Integer.MIN_VALUE / 2);
            case END -> move(Integer.MAX_VALUE / 2);
            case SHIFT_UP -> shift(1, now);
            case SHIFT_DOWN -> shift(-1, now);
            case TAB -> none(() -> m.setPane(m.pane().next()));
            case BACK_TAB -> none(() -> m.setPane(m.pane().next().next()));
            case ENTER -> none(() -> enter(now));
            case LEFT -> none(() -> {
                if (m.pane() == Pane.JOBS && m.foldSelected()) {
                    m.setStatus(Status.info("sweep folded: Enter unfolds it", now));
                }
            });
            case ESC -> none(this::escape);
            case CTRL_C -> List.of(new Action.Quit(130));
            case EOF -> List.of(new Action.Quit(0));
            case MOUSE_PRESS -> none(() -> click(key.x(), key.y()));
            case WHEEL_UP -> move(-WHEEL);
            case WHEEL_DOWN -> move(WHEEL);
            case CHAR -> character(key.ch(), now);
            default -> List.of();
        };
    }

    /** Enter: a folded sweep unfolds; anything else opens or closes the detail. */
    private void enter(Instant now) {
        if (m.pane() == Pane.JOBS) {
            java.util.Optional<SweepGroups.Group> sweep = m.selectedSweep();
            if (sweep.isPresent()) {
                m.unfold(sweep.get().sweepId());
                m.setStatus(Status.info("sweep " + sweep.get().sweepId() + " unfolded: Left on a run folds it", now));
                return;
            }
        }
        m.setLower(m.lower() == LowerPane.DETAIL ? LowerPane.NONE : LowerPane.DETAIL);
    }

    private List<Action> character(char c, Instant now) {
        return switch (c) {
            case 'j' -> move(1);
            case 'k' -> move(-1);
            case 'g' -> move(Integer.MIN_VALUE / 2);
            case 'G' -> move(Integer.MAX_VALUE / 2);
            case '[' -> none(() -> m.scrollLower(PAGE));
            case ']' -> none(() -> m.scrollLower(-PAGE));
            case 'L' -> none(() -> m.setLower(switch (m.lower()) {
                case NONE, DETAIL -> LowerPane.STDOUT;
                case STDOUT -> LowerPane.STDERR;
                case STDERR -> LowerPane.NONE;
            }));
            case 'c' -> cancel(now);
            case 'r' -> onJob(now, j -> List.of(new Action.Requeue(j.id())));
            case '+', '=' -> onJob(now, j -> List.of(new Action.Priority(j.id(), 1)));
            case '-' -> onJob(now, j -> List.of(new Action.Priority(j.id(), -1)));
            case 'K' -> shift(1, now);
            case 'J' -> shift(-1, now);
            case 's' -> sortBy(m.sort().next(), false, now);
            case 'S' -> sortBy(m.sort(), !m.reversed(), now);
            case 't' -> List.of(new Action.Tick());
            case 'a' -> {
                m.setAutoTick(!m.autoTick());
                m.setStatus(Status.info("auto-tick " + (m.autoTick() ? "on: a pass every refresh" : "off: t passes"), now));
                yield List.of();
            }
            case 'f' -> {
                m.setFilter(m.filter().next());
                m.setStatus(Status.info("showing " + m.filter().label() + " jobs", now));
                yield List.of();
            }
            case 'p' -> {
                m.setProcs(m.procs().next());
                m.setStatus(Status.info("GPU processes: " + m.procs().label(), now));
                yield List.of();
            }
            case 'd' -> drain(now);
            case 'A' -> {
                if (m.snapshot().openAlertCount() == 0) {
                    m.setStatus(Status.info("no open alerts", now));
                    yield List.of();
                }
                yield List.of(new Action.AckAll());
            }
            case '?' -> none(() -> m.setHelp(true));
            case 'q' -> List.of(new Action.Quit(0));
            default -> List.of();
        };
    }

    private List<Action> move(int delta) {
        switch (m.pane()) {
            case JOBS -> m.moveJob(delta);
            case NODES -> m.moveNode(delta);
            case LANES -> m.moveLane(delta);
        }
        return List.of();
    }

    private void escape() {
        if (m.help()) {
            m.setHelp(false);
        } else if (m.lower() != LowerPane.NONE) {
            m.setLower(LowerPane.NONE);
        }
    }

    private void click(int x, int y) {
        SortKey heading = m.hits().headingAt(x, y);
        if (heading != null) {
            m.setSort(heading, heading == m.sort() && !m.reversed());
            return;
        }
        Long job = m.hits().jobRows().get(y);
        if (job != null) {
            m.selectJob(job);
        }
        String node = m.hits().nodeRows().get(y);
        if (node != null) {
            m.selectNode(node);
        }
        String lane = m.hits().laneRows().get(y);
        if (lane != null) {
            m.selectLane(lane);
        }
    }

    private List<Action> sortBy(SortKey key, boolean reverse, Instant now) {
        m.setSort(key, reverse);
        m.setStatus(Status.info("sorted by " + key.label() + (reverse ? ", reversed" : ""), now));
        return List.of();
    }

    private List<Action> cancel(Instant now) {
        return onJob(now, j -> {
            if (!j.state().active()) {
                m.setStatus(Status.error("job " + j.id() + " is " + j.state().label() + "; only pending and running"
                        + " jobs can be cancelled", now));
                return List.of();
            }
            if (Long.valueOf(j.id()).equals(m.cancelArmed(now))) {
                m.armCancel(null, null);
                return List.of(new Action.Cancel(j.id()));
            }
            m.armCancel(j.id(), now);
            m.setStatus(Status.info("press c again within " + CANCEL_WINDOW.toSeconds() + " s to cancel job " + j.id()
                    + (j.name().isEmpty() ? "" : " (" + j.name() + ")") + "; Esc aborts", now));
            return List.of();
        });
    }

    /** K/J: a pending job one place earlier ({@code up} 1) or later in the order it will start. */
    private List<Action> shift(int up, Instant now) {
        return onJob(now, j -> {
            if (j.state() != JobState.PENDING) {
                m.setStatus(Status.error("job " + j.id() + " is " + j.displayState() + "; only pending jobs move", now));
                return List.of();
            }
            if (j.lane() == null) {
                return List.of(new Action.MovePool(j.id(), up));
            }
            Optional<LaneView> lane = m.snapshot().lane(j.lane());
            int position = lane.map(l -> Cycles.indexOf(l.queued(), q -> q.id() == j.id()) + 1).orElse(0);
            if (position == 0) {
                m.setStatus(Status.error("job " + j.id() + " is not queued in lane " + j.lane() + " any more", now));
                return List.of();
            }
            int to = position - up;
            if (to < 1 || to > lane.get().queued().size()) {
                m.setStatus(Status.info("job " + j.id() + " is already " + (up > 0 ? "first" : "last") + " in lane "
                        + j.lane(), now));
                return List.of();
            }
            return List.<Action>of(new Action.MoveInLane(j.lane(), j.id(), to));
        });
    }

    private List<Action> drain(Instant now) {
        Optional<NodeView> node = m.pane() == Pane.NODES ? m.selectedNode()
                : m.selected().map(Job::node).flatMap(n -> m.snapshot().nodes().stream()
                        .filter(v -> v.node().name().equals(n)).findFirst());
        if (node.isEmpty()) {
            m.setStatus(Status.error("no node selected: Tab to the nodes, or select a job that has a node", now));
            return List.of();
        }
        return List.of(new Action.Drain(node.get().node().name(), node.get().node().enabled()));
    }

    private List<Action> onJob(Instant now, java.util.function.Function<Job, List<Action>> action) {
        if (m.pane() != Pane.JOBS) {
            m.setStatus(Status.error("select a job in the jobs pane first (Tab)", now));
            return List.of();
        }
        Optional<Job> job = m.selected();
        if (job.isEmpty()) {
            m.setStatus(Status.error("no job selected", now));
            return List.of();
        }
        return action.apply(job.get());
    }

    private static List<Action> none(Runnable change) {
        change.run();
        return List.of();
    }
}
