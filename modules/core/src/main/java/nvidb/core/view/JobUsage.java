package nvidb.core.view;

import nvidb.core.api.Job;
import nvidb.core.api.Sizes;

/** What the passes measured of a job, as the text views append it to its memory line. */
public final class JobUsage {
    private JobUsage() {
    }

    /** {@code "  (peak 17.8G, mean util 63 %)"}, or empty before a look measured anything. */
    public static String measured(Job j) {
        Integer peak = j.learned().peakVramMb();
        Double util = j.learned().meanUtilPercent();
        if (peak == null && util == null) {
            return "";
        }
        String p = peak == null ? "" : "peak " + Sizes.format((long) peak);
        String u = util == null ? "" : "mean util " + Math.round(util) + " %";
        return "  (" + p + (p.isEmpty() || u.isEmpty() ? "" : ", ") + u + ")";
    }
}
