package nvidb.core.sweeps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sweeps;

/**
 * The runs of a sweep: each group of parameters (one {@code --grid} each, the {@code --zip} lists
 * together, the random draws, the params file) is a list of assignments, and the runs are their
 * cross product, the last group varying fastest. Everything is checked before anything is
 * expanded: names, lengths, the run count (without {@code --force} at most {@link Sweeps#MAX_RUNS}),
 * that every placeholder names a parameter and, where the command has placeholders, that each
 * parameter is used (as {@code {name}} or as its variable {@code NVIDB_PARAM_<NAME>}).
 *
 * @param names the parameter names, in order
 * @param runs  each run's values, by name
 * @param spec  how the runs were made, kept with the sweep (the seed of random draws among it)
 */
record SweepPlan(List<String> names, List<Map<String, String>> runs, Map<String, Object> spec) {

    static SweepPlan of(Sweeps.SweepRequest r, CommandTemplate command) {
        List<List<Map<String, String>>> groups = new ArrayList<>();
        Map<String, Object> spec = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        Map<String, Object> grid = new LinkedHashMap<>();
        for (String g : r.grid()) {
            Assignment a = Assignment.parse("--grid", g);
            declare(names, a.name());
            List<Map<String, String>> group = new ArrayList<>();
            a.values().forEach(v -> group.add(Map.of(a.name(), v)));
            groups.add(group);
            grid.put(a.name(), a.values());
        }
        if (!grid.isEmpty()) {
            spec.put("grid", grid);
        }
        if (!r.zip().isEmpty()) {
            spec.put("zip", zip(r.zip(), names, groups));
        }
        if (r.random() != null || !r.ranges().isEmpty() || r.seed() != null) {
            RandomDraws draws = RandomDraws.of(r.random(), r.seed(), r.ranges(), r.force());
            draws.names().forEach(n -> declare(names, n));
            spec.put("random", draws.spec());
            groups.add(new CountedGroup(draws.count(), draws::draw).list());
        }
        if (r.paramLines() != null) {
            ParamsFile file = ParamsFile.parse(r.paramLines(), r.paramSource());
            file.names().forEach(n -> declare(names, n));
            spec.put("params_file", r.paramSource());
            groups.add(file.runs());
        }
        if (groups.isEmpty()) {
            throw NvidbException.usage("a sweep needs parameters: --grid NAME=V1,V2, --zip NAME=V1,V2, --random N with"
                    + " --range NAME=uniform:A:B, or --params-file FILE");
        }
        matchPlaceholders(command, names);
        long count = 1;
        for (List<Map<String, String>> g : groups) {
            count = Math.multiplyExact(count, (long) g.size());
            if (count > Sweeps.MAX_RUNS && !r.force()) {
                throw tooMany(groups);
            }
        }
        return new SweepPlan(List.copyOf(names), cross(groups), spec);
    }

    /** Refuses more than {@link Sweeps#MAX_RUNS} runs without {@code --force}, before any is made. */
    private static NvidbException tooMany(List<List<Map<String, String>>> groups) {
        String sizes = String.join(" x ", groups.stream().map(g -> String.valueOf(g.size())).toList());
        return NvidbException.usage("the sweep would make more than " + Sweeps.MAX_RUNS + " runs (" + sizes
                + "); pass --force to submit it anyway, or sweep fewer values");
    }

    /** The lazily drawn group of random runs: drawn in order, so a seed always gives the same runs. */
    private record CountedGroup(int count, java.util.function.Supplier<Map<String, String>> next) {
        List<Map<String, String>> list() {
            List<Map<String, String>> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(next.get());
            }
            return out;
        }
    }

    private static Map<String, Object> zip(List<String> zips, List<String> names,
                                           List<List<Map<String, String>>> groups) {
        List<Assignment> lists = new ArrayList<>();
        Map<String, Object> spec = new LinkedHashMap<>();
        for (String z : zips) {
            Assignment a = Assignment.parse("--zip", z);
            declare(names, a.name());
            lists.add(a);
            spec.put(a.name(), a.values());
        }
        int n = lists.getFirst().values().size();
        for (Assignment a : lists) {
            if (a.values().size() != n) {
                throw NvidbException.usage("--zip lists pair their values one by one, so they must be equally long: "
                        + String.join(", ", lists.stream().map(x -> x.name() + " has " + x.values().size()).toList()));
            }
        }
        List<Map<String, String>> group = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, String> run = new LinkedHashMap<>();
            for (Assignment a : lists) {
                run.put(a.name(), a.values().get(i));
            }
            group.add(run);
        }
        groups.add(group);
        return spec;
    }

    /** A parameter name: an identifier, and unique even as the upper-case name of its environment variable. */
    static void declare(List<String> names, String name) {
        if (!CommandTemplate.NAME.matcher(name).matches()) {
            throw NvidbException.usage("parameter name '" + name + "' is not a name: letters, digits and _, not"
                    + " starting with a digit (it becomes $" + variable(name) + ")");
        }
        for (String n : names) {
            if (n.equalsIgnoreCase(name)) {
                throw NvidbException.usage("parameter '" + name + "' is given twice"
                        + (n.equals(name) ? "" : " (as '" + n + "': both would be $" + variable(name) + ")"));
            }
        }
        names.add(name);
    }

    /** A parameter's environment variable, as each run has it. */
    static String variable(String name) {
        return "NVIDB_PARAM_" + name.toUpperCase(Locale.ROOT);
    }

    /**
     * Every placeholder names a parameter; and where the command has placeholders, every parameter is
     * used: as {@code {name}} or by its variable {@code NVIDB_PARAM_<NAME>}. A command without any
     * placeholder reads its parameters from its environment (a script, a program), so it passes. The
     * shell's {@code ${name}} of a parameter's own name is refused: it reads no parameter.
     */
    private static void matchPlaceholders(CommandTemplate command, List<String> names) {
        Set<String> used = command.names();
        Set<String> unknown = new TreeSet<>(used);
        names.forEach(unknown::remove);
        Set<String> unused = new TreeSet<>();
        Set<String> shell = new TreeSet<>();
        for (String n : names) {
            if (command.shellVariables().contains(n)) {
                shell.add(n);
            } else if (!used.isEmpty() && !used.contains(n) && !command.namesVariable(variable(n))) {
                unused.add(n);
            }
        }
        if (unknown.isEmpty() && unused.isEmpty() && shell.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        if (!unknown.isEmpty()) {
            problems.add("placeholder " + String.join(", ", unknown.stream().map(u -> "{" + u + "}").toList())
                    + " names no parameter");
        }
        if (!unused.isEmpty()) {
            problems.add("parameter " + String.join(", ", unused) + " is used nowhere in the command (write "
                    + String.join(" or ", unused.stream().map(u -> "{" + u + "}").toList()) + ", or read $"
                    + String.join(" or $", unused.stream().map(SweepPlan::variable).toList()) + ")");
        }
        for (String n : shell) {
            problems.add("${" + n + "} is the shell's variable " + n + ", not the parameter (write {" + n
                    + "} for its value, or $" + variable(n) + ")");
        }
        throw NvidbException.usage(String.join("; ", problems) + " (the command has "
                + (used.isEmpty() ? "no placeholders" : String.join(" ", used.stream().map(u -> "{" + u + "}").toList()))
                + "; the parameters are " + String.join(", ", names) + "; write {{ for a literal brace)");
    }

    private static List<Map<String, String>> cross(List<List<Map<String, String>>> groups) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(Map.of());
        for (List<Map<String, String>> group : groups) {
            List<Map<String, String>> next = new ArrayList<>(out.size() * group.size());
            for (Map<String, String> prefix : out) {
                for (Map<String, String> g : group) {
                    Map<String, String> run = new LinkedHashMap<>(prefix);
                    run.putAll(g);
                    next.add(run);
                }
            }
            out = next;
        }
        return out;
    }

    /** {@code name=v1,v2,…}. */
    record Assignment(String name, List<String> values) {
        static Assignment parse(String option, String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw NvidbException.usage(option + " takes NAME=V1,V2,…, got '" + text + "'");
            }
            String name = text.substring(0, eq).strip();
            List<String> values = List.of(text.substring(eq + 1).split(",", -1));
            if (values.stream().anyMatch(String::isEmpty)) {
                throw NvidbException.usage(option + " " + name + " has an empty value in '" + text.substring(eq + 1)
                        + "' (values are separated by commas; a value with a comma goes in a --params-file)");
            }
            return new Assignment(name, values);
        }
    }
}
