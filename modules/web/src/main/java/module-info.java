/**
 * The queue in a browser ({@code nvidb queue web}, and the daemon with {@code queue.web.listen}):
 * the pages, their live stream of changes, the HTTP API and the Prometheus metrics, on the JDK's
 * own HTTP server. Reaches core only through {@code nvidb.core.api}; the documents it serves are
 * the CLI's, produced by the {@link nvidb.web.Web.Backend} the CLI hands it.
 */
module nvidb.web {
    requires nvidb.core;
    requires jdk.httpserver;

    exports nvidb.web;
}
