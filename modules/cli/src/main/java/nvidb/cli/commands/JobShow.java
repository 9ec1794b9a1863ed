package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.cli.output.HumanViews;
import nvidb.cli.output.Views;
import nvidb.core.model.Event;
import nvidb.core.service.QueueService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "show", mixinStandardHelpOptions = true, description = "One job in full, with its events.")
public final class JobShow extends BaseCommand {
    @Mixin
    JobIdArgument id;

    @Mixin
    TickOptions tick;

    @Override
    protected int execute() {
        long jobId = id.value();
        QueueService service = service();
        service.tick(tick.read());
        QueueService.JobDetail detail = service.show(jobId);
        if (json()) {
            ObjectNode o = Views.job(detail.job(), now());
            ArrayNode events = o.putArray("events");
            for (Event e : detail.events()) {
                events.add(Views.event(e));
            }
            out().document(o);
        } else {
            out().line(HumanViews.jobDetail(detail.job(), detail.events(), now()));
        }
        return 0;
    }
}
