package nvidb.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import nvidb.core.api.HealthCheck;
import nvidb.core.view.QueueDocuments.Doctor;
import picocli.CommandLine.Command;

@Command(name = "doctor", mixinStandardHelpOptions = true, description = {
        "Check what this queue needs to work, one line per check.",
        "✔ ok, ! a warning (the queue works; advice), ✘ a failure; each of the last two says what to do.",
        "The configuration parses (unknown keys named); the database passes quick_check; free",
        "space for it and its backups; each node answers over its transport (all at once, within",
        "queue.probe_timeout), its job_root takes a file, what nvidia-smi says, its clock is within",
        "5 s of this host's; a daemon or keeper keeps the queue moving (a warning without one, a",
        "failure when an installed keeper is down); the newest backup's age (a warning when none is",
        "recent). Exit 0 when no check fails (warnings or not), 1 when one fails."})
public final class DoctorCommand extends BaseCommand {
    private static final Map<HealthCheck.Level, String> MARKS = Map.of(HealthCheck.Level.OK, "✔",
            HealthCheck.Level.WARN, "!", HealthCheck.Level.FAIL, "✘");

    private final Supplier<Optional<HealthCheck>> queueHost;

    /** @param queueHost the check of the queue host the configuration names (remote:), if it names one */
    public DoctorCommand(Supplier<Optional<HealthCheck>> queueHost) {
        this.queueHost = queueHost;
    }

    @Override
    protected int execute() {
        List<HealthCheck> checks = new ArrayList<>(ctx().app().doctor(ctx().caller()));
        queueHost.get().ifPresent(checks::add);
        Doctor report = Doctor.of(checks);
        if (json()) {
            out().document(report);
        } else {
            for (HealthCheck c : checks) {
                out().line(MARKS.get(c.level()) + " " + c.name() + ": " + c.detail());
                if (c.fix() != null) {
                    out().line("    fix: " + c.fix());
                }
            }
        }
        return report.ok() ? 0 : 1;
    }
}
