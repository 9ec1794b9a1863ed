package nvidb.core.view;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import nvidb.core.api.Sizes;

/** Where a job's reservation came from ({@code vram_source}), in words, as every front end shows it. */
public final class VramSources {
    private VramSources() {
    }

    /** The source in words; empty for a job from before sources were kept. */
    public static String describe(JsonNode source) {
        if (source == null || source.isNull() || source.isMissingNode()) {
            return "";
        }
        return switch (source.path("kind").asText()) {
            case "explicit" -> "as given with --vram";
            case "default" -> "queue.default_vram";
            case "first_run" -> "first run: no earlier run to learn from";
            case "cpu_only" -> "CPU-only work reserves no GPU memory";
            case "learned" -> "learned from job" + (source.path("jobs").size() == 1 ? " " : "s ") + ids(source.path("jobs"))
                    + ": 95th-percentile peak " + Sizes.format(source.path("peak_mb").asLong()) + " plus margin";
            case "oom_retry" -> "raised from " + Sizes.format(source.path("from_mb").asLong())
                    + " after it ran out of GPU memory";
            default -> source.path("kind").asText();
        };
    }

    private static String ids(JsonNode jobs) {
        List<String> out = new ArrayList<>();
        jobs.forEach(j -> out.add(j.asText()));
        if (out.size() > 6) {
            return String.join(", ", out.subList(0, 3)) + ", … " + out.getLast() + " (" + out.size() + ")";
        }
        return String.join(", ", out);
    }
}
