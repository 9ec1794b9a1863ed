package nvidb.tui.view;

/** What a piece of text is, for the terminal to show: the writer turns it into attributes and colours. */
public enum Style {
    NORMAL, BOLD, DIM, HEADING, ERROR, WARN, GOOD, HELD, EXTERNAL, RESERVED, FREE
}
