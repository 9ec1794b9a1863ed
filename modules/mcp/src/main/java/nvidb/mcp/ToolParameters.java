package nvidb.mcp;

import java.util.List;

/**
 * Where each tool's arguments come from: the CLI's model of the command the tool mirrors (the
 * CLI implements this), so that an option exists in both or in neither.
 */
@FunctionalInterface
public interface ToolParameters {
    /** The arguments of {@code tool} (one of {@link Tools#NAMES}). */
    List<ToolParameter> of(String tool);
}
