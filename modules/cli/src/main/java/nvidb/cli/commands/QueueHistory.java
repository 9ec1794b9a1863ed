package nvidb.cli.commands;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import nvidb.core.api.History;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Times;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code nvidb queue history}: what the passes recorded of a GPU, or of the queue. */
@Command(name = "history", mixinStandardHelpOptions = true, description = {
    "What a GPU or the queue looked like over the last hour, day or week, as the passes recorded it.",
    "With --gpu NODE:INDEX: memory (total, external, reserved by the queue, free, used), utilisation, temperature",
    "and jobs per bucket; without: jobs pending and running and the longest wait. Buckets of 1 minute are kept a day,",
    "of 10 minutes a week, of an hour 30 days. The web pages draw it."})
public final class QueueHistory extends BaseCommand {
    @Option(names = "--gpu", paramLabel = "NODE:INDEX", description = "One GPU, such as box406:2 (default: the queue).")
    String gpu;

    @Option(names = "--range", paramLabel = "RANGE", defaultValue = "1h", description = "1h, 1d or 7d (default 1h).")
    String range;

    @Override
    protected int execute() {
        History.Range r = History.Range.of(range);
        ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        o.put("range", r.label());
        ArrayNode a;
        if (gpu == null) {
            List<History.QueueSample> samples = service().history().queue(r);
            a = o.putArray("samples");
            for (History.QueueSample s : samples) {
                ObjectNode x = a.addObject();
                x.put("at", Times.iso(s.at()));
                x.put("probes", s.probes());
                x.put("pending", s.pending());
                x.put("running", s.running());
                x.put("oldest_wait_s", s.oldestWaitS());
            }
        } else {
            int colon = gpu.lastIndexOf(':');
            int index = colon > 0 ? parseIndex(gpu.substring(colon + 1)) : -1;
            if (index < 0) {
                throw NvidbException.usage("--gpu takes NODE:INDEX, such as box406:2, not '" + gpu + "'");
            }
            o.put("node", gpu.substring(0, colon));
            o.put("index", index);
            a = o.putArray("samples");
            for (History.GpuSample s : service().history().gpu(gpu.substring(0, colon), index, r)) {
                ObjectNode x = a.addObject();
                x.put("at", Times.iso(s.at()));
                x.put("probes", s.probes());
                x.put("total_mb", s.totalMb());
                x.put("external_mb", s.externalMb());
                x.put("reserved_mb", s.reservedMb());
                x.put("free_mb", s.freeMb());
                x.put("used_mb", s.usedMb());
                x.put("util_percent", s.utilPercent());
                x.put("temperature_c", s.temperatureC());
                x.put("jobs", s.jobs());
            }
        }
        if (json()) {
            out().document(o);
        } else {
            out().line(a.isEmpty() ? "no samples in the last " + r.label() + " (a pass records them)"
                    : human(a));
        }
        return 0;
    }

    private static int parseIndex(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One line a bucket: its time, then each value as key=value. */
    private static String human(ArrayNode samples) {
        StringBuilder b = new StringBuilder();
        for (var s : samples) {
            StringBuilder line = new StringBuilder();
            s.properties().forEach(e -> line.append(line.isEmpty() ? "" : "  ")
                    .append(e.getKey().equals("at") ? "" : e.getKey() + "=").append(e.getValue().asText()));
            b.append(line).append('\n');
        }
        return b.toString().stripTrailing();
    }
}
