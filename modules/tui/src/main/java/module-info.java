/**
 * The queue on a terminal ({@code nvidb queue}): node cards, the job table in dispatch order, a
 * job's detail and log, lanes and alerts, steered with keys and the mouse. Reaches core only
 * through {@code nvidb.core.api}; the model and the drawing know nothing of the terminal.
 */
module nvidb.tui {
    requires nvidb.core;
    requires org.jline.terminal;

    exports nvidb.tui;
}
