package nvidb.core.api;

/** How a command refreshes before or after it works. */
public enum TickMode { AUTO, FORCE, NONE }
