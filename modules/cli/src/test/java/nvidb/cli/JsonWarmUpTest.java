package nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import nvidb.cli.commands.JobCancel;
import nvidb.cli.commands.JobList;
import nvidb.cli.commands.JobShow;
import nvidb.cli.commands.JobSubmit;
import nvidb.cli.commands.JobWait;
import nvidb.cli.commands.QueueStatus;
import nvidb.cli.commands.QueueTick;
import nvidb.cli.commands.SweepList;
import nvidb.cli.commands.SweepShow;
import nvidb.cli.startup.CommandLines;
import nvidb.core.view.AlertView;
import nvidb.core.view.JobDocuments;
import nvidb.core.view.JobListing;
import nvidb.core.view.JobView;
import nvidb.core.view.LaneView;
import nvidb.core.view.NodeView;
import nvidb.core.view.QueueDocuments;
import nvidb.core.view.StatusDocument;
import nvidb.core.view.StatusSummary;
import nvidb.core.view.SweepDocuments;
import nvidb.core.view.TickView;
import org.junit.jupiter.api.Test;

/**
 * What {@code JsonWarmUp} prepares for a command with {@code --json}: the view records the build
 * derived from the command's bytecode (nvidb.cli.startup.build.JsonDocuments), stored in its model.
 */
class JsonWarmUpTest {
    /**
     * The lists each command kept by hand before the build derived them ({@code jsonDocuments()},
     * until commit 5cb2c5a).
     */
    private static final Map<Class<?>, List<Class<?>>> HAND_KEPT = new LinkedHashMap<>();

    static {
        HAND_KEPT.put(JobSubmit.class, List.of(JobDocuments.Submitted.class, TickView.Ran.class));
        HAND_KEPT.put(JobCancel.class, List.of(JobDocuments.Several.class, JobDocuments.Cancelled.class));
        HAND_KEPT.put(JobList.class, List.of(JobView.class));
        HAND_KEPT.put(JobShow.class, List.of(JobDocuments.Shown.class));
        HAND_KEPT.put(JobWait.class, List.of(JobDocuments.Waited.class));
        HAND_KEPT.put(QueueTick.class, List.of(TickView.Ran.class));
        HAND_KEPT.put(QueueStatus.class, List.of(StatusDocument.class, JobView.class, NodeView.class,
                LaneView.Detail.class, QueueDocuments.TickLock.class, QueueDocuments.Daemon.class,
                QueueDocuments.KeeperState.class, QueueDocuments.Settings.class, AlertView.Listed.class));
        HAND_KEPT.put(SweepList.class, List.of(SweepDocuments.Listed.class));
        HAND_KEPT.put(SweepShow.class, List.of(SweepDocuments.Shown.class));
    }

    private static List<String> derived(Class<?> command) {
        return CommandLines.fromModel().documents(command);
    }

    private static List<String> names(Class<?>... types) {
        List<String> names = new ArrayList<>();
        for (Class<?> t : types) {
            names.add(t.getName());
        }
        return names;
    }

    @Test
    void eachCommandsDocumentsComeFromWhatItsOperationsReturnAndWhatItMakes() {
        // Acted<Several<Cancelled>>: the type arguments of the operation's return type; then what they
        // hold (Several's tick).
        assertEquals(names(JobDocuments.Several.class, JobDocuments.Cancelled.class, TickView.NotNeeded.class,
                        TickView.Disabled.class, TickView.Ran.class, TickView.Finished.class, TickView.Dispatched.class,
                        TickView.AlertRef.class, TickView.Delivery.class, TickView.Held.class),
                derived(JobCancel.class));
        // Previewed (--dry-run), Submitted; its tick is a TickView, a sealed interface: Jackson finds each record's serialiser
        // when it writes one, so they are all prepared, with the records of Ran's lists.
        assertEquals(names(JobDocuments.Previewed.class, JobDocuments.Submitted.class, TickView.NotNeeded.class,
                        TickView.Disabled.class,
                        TickView.Ran.class, TickView.Finished.class, TickView.Dispatched.class, TickView.AlertRef.class,
                        TickView.Delivery.class, TickView.Held.class),
                derived(JobSubmit.class));
        // The summary (--summary), the status document, the records of its lists, then those of theirs.
        assertEquals(names(StatusSummary.class, StatusDocument.class, NodeView.class, AlertView.Listed.class,
                        LaneView.Detail.class, JobView.class, nvidb.core.view.UserView.class, NodeView.Gpu.class,
                        AlertView.Delivery.class, NodeView.Process.class),
                derived(QueueStatus.class));
        // Its jobs are a JobStream, written by its own serialiser, which builds JobView's with the listing's.
        assertEquals(names(JobListing.class), derived(JobList.class));
        // A static factory of a view class (TickView.of), and a record made with new (--watch's summary).
        assertTrue(derived(QueueTick.class).containsAll(names(TickView.Ran.class, QueueDocuments.WatchSummary.class)),
                derived(QueueTick.class).toString());
    }

    /**
     * Every serialiser the hand-kept lists had built ahead is built ahead from the derived list:
     * each class of the old list is in the new one, or its serialiser is built with one that is
     * (a component of a final type: the status's tick lock, daemon, keeper and settings; the job
     * view of a listing's stream). Checked on a mapper of its own, where preparing a class whose
     * serialiser is there already adds one entry at most (its root's), and building one adds more.
     */
    @Test
    void theDerivedListsPrepareAllThatTheHandKeptListsDid() throws Exception {
        for (Map.Entry<Class<?>, List<Class<?>>> e : HAND_KEPT.entrySet()) {
            ObjectMapper mapper = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
            DefaultSerializerProvider cache = (DefaultSerializerProvider) mapper.getSerializerProvider();
            for (String document : derived(e.getKey())) {
                mapper.writerFor(Class.forName(document));
            }
            for (Class<?> old : e.getValue()) {
                int before = cache.cachedSerializersCount();
                mapper.writerFor(old);
                int built = cache.cachedSerializersCount() - before;
                assertTrue(built <= 1, e.getKey().getSimpleName() + ": " + old.getName()
                        + " was not prepared by the derived list " + derived(e.getKey()) + " (" + built + " built)");
            }
        }
    }

    /** A command that prints no document has nothing to prepare. */
    @Test
    void commandsWithoutDocumentsPrepareNothing() {
        assertEquals(List.of(), derived(nvidb.cli.commands.CompletionCommand.class));
        assertEquals(List.of(), derived(nvidb.cli.commands.JobCommand.class));
    }
}
