package nvidb.core.view;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code job ls --json}: the jobs (read while the document is written), the limit asked for, and
 * whether the limit cut the listing, which is known once the jobs are written.
 */
@JsonPropertyOrder({"jobs", "limit", "truncated"})
public record JobListing(JobStream jobs, int limit) {
    @JsonProperty("truncated")
    public boolean truncated() {
        return limit > 0 && jobs.count() == limit;
    }
}
