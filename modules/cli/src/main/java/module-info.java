/** The {@code nvidb} command: picocli commands over the application layer ({@code nvidb.core.app}), and their output. */
module nvidb.cli {
    requires nvidb.core;
    requires info.picocli;
    requires nvidb.pluginhost;
    requires nvidb.tui;
    requires nvidb.web;
    requires nvidb.mcp;
    // sun.misc.Signal: the daemon stops on SIGTERM with exit 0 (nvidb.cli.context.StopSignals), and a
    // forwarded command relays Ctrl-C to the queue host instead of ending here.
    requires jdk.unsupported;

    // picocli fills the @Option fields of the commands reflectively.
    opens nvidb.cli to info.picocli;
    opens nvidb.cli.commands to info.picocli;
    opens nvidb.cli.output to info.picocli;
    opens nvidb.cli.context to info.picocli;

    exports nvidb.cli;
}
