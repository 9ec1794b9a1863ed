package nvidb.plugins.alerts;

import nvidb.spi.alert.AlertMessage;

/** Alerts as core hands them to sinks, for the tests. */
final class Alerts {

    private Alerts() {
    }

    static AlertMessage alert(long id, String kind, Long jobId, String node, String title) {
        String json = "{\"id\": " + id + ", \"ts\": \"2025-01-02T03:04:05Z\", \"kind\": \"" + kind
                + "\", \"severity\": \"error\", \"job_id\": " + jobId + ", \"node\": "
                + (node == null ? "null" : "\"" + node + "\"") + ", \"title\": \"" + title.replace("\"", "\\\"")
                + "\", \"detail\": null}";
        return new AlertMessage(id, "2025-01-02T03:04:05Z", kind, "error", jobId, node, title, null, json);
    }

    static AlertMessage withJson(long id, String json) {
        return new AlertMessage(id, "2025-01-02T03:04:05Z", "job_failed", "error", null, null, "t", null, json);
    }
}
