package nvidb.cli.completion;

import java.util.ArrayList;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The bash completion script: picocli's generator ({@link AutoComplete}) for every command,
 * subcommand, option and fixed value, and around it one function that adds job ids, node names
 * and lane names from the local queue ({@code nvidb completion --candidates KIND}) where the word
 * being completed is one of those. Also what zsh runs through its bashcompinit, when asked.
 */
public final class BashCompletion {
    private BashCompletion() {
    }

    public static String script(CommandLine root) {
        String picocli = AutoComplete.bash(root.getCommandName(), root);
        return picocli + dynamic(root);
    }

    /**
     * The tables the queue-backed completion reads (bash associative arrays, by command path):
     * subcommands, options that take a value, the kind of each positional, the kind of each option.
     */
    private static String dynamic(CommandLine root) {
        StringBuilder b = new StringBuilder();
        b.append("\n# Job ids, node names and lane names from the local queue, added to what picocli's\n")
                .append("# completion offers. nvidb completion --candidates KIND reads this machine's queue file\n")
                .append("# only (never over SSH) and prints nothing when there is none.\n")
                .append("declare -gA _nvidb_subs=() _nvidb_valopts=() _nvidb_poskinds=() _nvidb_optkinds=()\n");
        for (CommandLine line : CommandTree.commands(root)) {
            String path = line.getCommandSpec().qualifiedName(" "); // "nvidb job submit": a key is never empty
            CommandSpec spec = line.getCommandSpec();
            List<String> subs = CommandTree.subcommands(line).stream().map(CommandLine::getCommandName).toList();
            List<String> valueOptions = new ArrayList<>();
            for (OptionSpec o : CommandTree.options(spec)) {
                if (CommandTree.takesValue(o)) {
                    valueOptions.addAll(List.of(o.names()));
                }
                CommandTree.Kind kind = CommandTree.kind(o);
                if (kind != null) {
                    for (String name : o.names()) {
                        b.append("_nvidb_optkinds[").append(quote(path + " " + name)).append("]=").append(kind.label())
                                .append('\n');
                    }
                }
            }
            List<String> kinds = new ArrayList<>();
            for (PositionalParamSpec p : CommandTree.positionals(spec)) {
                CommandTree.Kind kind = CommandTree.kind(p);
                String k = kind == null ? "-" : kind.label();
                kinds.add(p.arity().max() > 1 || p.arity().isVariable() ? k + "*" : k);
            }
            b.append("_nvidb_subs[").append(quote(path)).append("]=").append(quote(String.join(" ", subs))).append('\n');
            b.append("_nvidb_valopts[").append(quote(path)).append("]=").append(quote(String.join(" ", valueOptions)))
                    .append('\n');
            b.append("_nvidb_poskinds[").append(quote(path)).append("]=").append(quote(String.join(" ", kinds)))
                    .append('\n');
        }
        b.append("""

                # Which kind of value the word under the cursor is: walk the typed words, descending
                # into subcommands, skipping option values, counting positionals.
                _nvidb_kind_here() {
                    local path=nvidb i w count=0 kinds
                    for ((i = 1; i < COMP_CWORD; i++)); do
                        w=${COMP_WORDS[i]}
                        if [[ $w == -- ]]; then return; fi
                        if [[ $w == -* ]]; then
                            if [[ $w != *=* && " ${_nvidb_valopts[$path]} " == *" $w "* ]]; then ((i++)); fi
                            continue
                        fi
                        if [[ " ${_nvidb_subs[$path]} " == *" $w "* ]]; then
                            path="$path $w"
                            count=0
                        else
                            ((count++))
                        fi
                    done
                    local prev=${COMP_WORDS[COMP_CWORD-1]}
                    if [[ $prev == -* && -n ${_nvidb_optkinds["$path $prev"]:-} ]]; then
                        echo "${_nvidb_optkinds["$path $prev"]}"
                        return
                    fi
                    [[ ${COMP_WORDS[COMP_CWORD]} == -* ]] && return
                    read -r -a kinds <<< "${_nvidb_poskinds[$path]}"
                    local k=""
                    if ((count < ${#kinds[@]})); then
                        k=${kinds[count]}
                    elif ((${#kinds[@]} > 0)) && [[ ${kinds[-1]} == *'*' ]]; then
                        k=${kinds[-1]}
                    fi
                    k=${k%'*'}
                    [[ $k != - ]] && echo "$k"
                }

                _nvidb_complete() {
                    _complete_nvidb "$@"
                    local kind
                    kind=$(_nvidb_kind_here)
                    if [[ -n $kind ]]; then
                        local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\\n'
                        COMPREPLY+=($(compgen -W "$("${COMP_WORDS[0]}" completion --candidates "$kind" 2> /dev/null)" -- "$cur"))
                    fi
                }
                complete -F _nvidb_complete -o default nvidb nvidb.sh
                """);
        return b.toString();
    }

    /** A bash word in single quotes. */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
