package nvidb.cli.startup;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.UsageMessageSpec;

/** The usage-message settings a model carries: read from picocli's spec, and put back by name. */
public final class UsageSettings {
    private UsageSettings() {
    }

    /** Every setting of {@code usage}, by name (the names {@link #apply} knows). */
    static Map<String, Object> of(UsageMessageSpec usage) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("headerHeading", usage.headerHeading());
        s.put("header", usage.header());
        s.put("synopsisHeading", usage.synopsisHeading());
        s.put("synopsisSubcommandLabel", usage.synopsisSubcommandLabel());
        s.put("synopsisAutoIndentThreshold", usage.synopsisAutoIndentThreshold());
        s.put("synopsisIndent", usage.synopsisIndent());
        s.put("abbreviateSynopsis", usage.abbreviateSynopsis());
        s.put("customSynopsis", usage.customSynopsis());
        s.put("descriptionHeading", usage.descriptionHeading());
        s.put("description", usage.description());
        s.put("parameterListHeading", usage.parameterListHeading());
        s.put("optionListHeading", usage.optionListHeading());
        s.put("sortOptions", usage.sortOptions());
        s.put("sortSynopsis", usage.sortSynopsis());
        s.put("requiredOptionMarker", usage.requiredOptionMarker());
        s.put("showDefaultValues", usage.showDefaultValues());
        s.put("showAtFileInUsageHelp", usage.showAtFileInUsageHelp());
        s.put("showEndOfOptionsDelimiterInUsageHelp", usage.showEndOfOptionsDelimiterInUsageHelp());
        s.put("hidden", usage.hidden());
        s.put("commandListHeading", usage.commandListHeading());
        s.put("exitCodeListHeading", usage.exitCodeListHeading());
        s.put("exitCodeList", usage.exitCodeList());
        s.put("footerHeading", usage.footerHeading());
        s.put("footer", usage.footer());
        s.put("width", usage.width());
        s.put("autoWidth", usage.autoWidth());
        s.put("longOptionsMaxWidth", usage.longOptionsMaxWidth());
        s.put("adjustLineBreaksForWideCJKCharacters", usage.adjustLineBreaksForWideCJKCharacters());
        return s;
    }

    /** The settings of {@code usage} that differ from a fresh spec's: what a model has to carry. */
    public static Map<String, Object> changed(UsageMessageSpec usage) {
        Map<String, Object> defaults = of(new UsageMessageSpec());
        Map<String, Object> changed = new LinkedHashMap<>();
        of(usage).forEach((name, value) -> {
            if (!java.util.Objects.deepEquals(value, defaults.get(name))) {
                changed.put(name, value);
            }
        });
        return changed;
    }

    /** Sets the setting called {@code name} (one of those {@link #of} reads). */
    @SuppressWarnings("unchecked")
    static void apply(UsageMessageSpec usage, String name, Object v) {
        switch (name) {
            case "headerHeading" -> usage.headerHeading((String) v);
            case "header" -> usage.header((String[]) v);
            case "synopsisHeading" -> usage.synopsisHeading((String) v);
            case "synopsisSubcommandLabel" -> usage.synopsisSubcommandLabel((String) v);
            case "synopsisAutoIndentThreshold" -> usage.synopsisAutoIndentThreshold((Double) v);
            case "synopsisIndent" -> usage.synopsisIndent((Integer) v);
            case "abbreviateSynopsis" -> usage.abbreviateSynopsis((Boolean) v);
            case "customSynopsis" -> usage.customSynopsis((String[]) v);
            case "descriptionHeading" -> usage.descriptionHeading((String) v);
            case "description" -> usage.description((String[]) v);
            case "parameterListHeading" -> usage.parameterListHeading((String) v);
            case "optionListHeading" -> usage.optionListHeading((String) v);
            case "sortOptions" -> usage.sortOptions((Boolean) v);
            case "sortSynopsis" -> usage.sortSynopsis((Boolean) v);
            case "requiredOptionMarker" -> usage.requiredOptionMarker((Character) v);
            case "showDefaultValues" -> usage.showDefaultValues((Boolean) v);
            case "showAtFileInUsageHelp" -> usage.showAtFileInUsageHelp((Boolean) v);
            case "showEndOfOptionsDelimiterInUsageHelp" -> usage.showEndOfOptionsDelimiterInUsageHelp((Boolean) v);
            case "hidden" -> usage.hidden((Boolean) v);
            case "commandListHeading" -> usage.commandListHeading((String) v);
            case "exitCodeListHeading" -> usage.exitCodeListHeading((String) v);
            case "exitCodeList" -> usage.exitCodeList((Map<String, String>) v);
            case "footerHeading" -> usage.footerHeading((String) v);
            case "footer" -> usage.footer((String[]) v);
            case "width" -> usage.width((Integer) v);
            case "autoWidth" -> usage.autoWidth((Boolean) v);
            case "longOptionsMaxWidth" -> usage.longOptionsMaxWidth((Integer) v);
            case "adjustLineBreaksForWideCJKCharacters" -> usage.adjustLineBreaksForWideCJKCharacters((Boolean) v);
            default -> throw new IllegalArgumentException("unknown usage setting " + name);
        }
    }
}
