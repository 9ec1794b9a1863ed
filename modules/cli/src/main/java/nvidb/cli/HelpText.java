package nvidb.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What every {@code --help} ends with: two or three examples, each a command line that parses
 * (HelpTest checks both). They live here, in one table, rather than in 37 annotations so the set
 * can be read and kept consistent at a glance; a command without an entry fails HelpTest.
 */
final class HelpText {
    static final String EXAMPLES_HEADING = "%nExamples:%n";

    /** By command path without the leading {@code nvidb}; the root is the empty path. */
    static final Map<String, List<String>> EXAMPLES = Map.ofEntries(
            Map.entry("", List.of(
                    "nvidb job submit --json --name train --vram 20G -- python train.py --epochs 10",
                    "nvidb queue status --json",
                    "nvidb job wait 12 --json")),
            Map.entry("queue", List.of("nvidb queue                 # the TUI; ? lists its keys", "nvidb queue status",
                    "nvidb queue alerts --json")),
            Map.entry("queue web", List.of("nvidb queue web                  # prints the link with the token",
                    "nvidb queue web --listen 0.0.0.0:8765   # beyond loopback: every request needs the token",
                    "nvidb queue web --listen 127.0.0.1:0 --json --open")),
            Map.entry("queue share", List.of("nvidb --db-path /srv/nvidb/queue.db queue share --group lab",
                    "nvidb queue share --group lab --json   # the queue at NVIDB_QUEUE_DB")),
            Map.entry("queue web token", List.of("nvidb queue web token add alice", "nvidb queue web token ls --json")),
            Map.entry("queue web token add", List.of("nvidb queue web token add alice   # prints the token, this once",
                    "nvidb queue web token add bob --json")),
            Map.entry("queue web token ls", List.of("nvidb queue web token ls", "nvidb queue web token ls --json")),
            Map.entry("queue web token revoke", List.of("nvidb queue web token revoke 3",
                    "nvidb queue web token revoke alice --json   # every token of alice")),
            Map.entry("queue users", List.of("nvidb queue users ls",
                    "nvidb queue users add alice --key alice.pub")),
            Map.entry("queue users add", List.of("nvidb queue users add alice --key alice.pub",
                    "nvidb queue users add bob --key /tmp/bob.pub --json")),
            Map.entry("queue users ls", List.of("nvidb queue users ls", "nvidb queue users ls --json")),
            Map.entry("queue users rm", List.of("nvidb queue users rm alice",
                    "nvidb queue users rm bob --authorized-keys /home/nvidb/.ssh/authorized_keys")),
            Map.entry("queue history", List.of("nvidb queue history --json",
                    "nvidb queue history --gpu box406:2 --range 1d --json")),
            Map.entry("queue usage", List.of("nvidb queue usage   # the last 7 days, a row per user",
                    "nvidb queue usage --since 30d --by sweep --json", "nvidb queue usage --since 2026-12-01 --by node --csv")),
            Map.entry("queue tui", List.of("nvidb queue tui", "nvidb queue tui --refresh 10   # a pass every 10 s")),
            Map.entry("queue status", List.of("nvidb queue status", "nvidb queue status --json --procs",
                    "nvidb queue status --summary --json   # counts, nodes, budgets, alerts; no job lists")),
            Map.entry("mcp", List.of("nvidb mcp                      # started by the agent's MCP client",
                    "nvidb mcp config --client claude-code")),
            Map.entry("mcp config", List.of("nvidb mcp config --client claude-code",
                    "nvidb mcp config --client codex", "nvidb mcp config --client vscode")),
            Map.entry("queue nodes", List.of("nvidb queue nodes --json", "nvidb queue nodes --procs --include-ignored")),
            Map.entry("queue tick", List.of("nvidb queue tick --json",
                    "nvidb queue tick --watch 15 --json      # JSON Lines: one pass a line, then a summary")),
            Map.entry("queue events", List.of("nvidb queue events --json",
                    "nvidb queue events --since 120 --json   # then pass last_id as the next --since",
                    "nvidb queue events --job 12 -n 20")),
            Map.entry("queue alerts", List.of("nvidb queue alerts --json", "nvidb queue alerts --all -n 10")),
            Map.entry("queue ack", List.of("nvidb queue ack 3 4", "nvidb queue ack --all --json")),
            Map.entry("queue lanes", List.of("nvidb queue lanes --json", "nvidb queue lanes --node box406")),
            Map.entry("queue lane", List.of("nvidb queue lane box406:0 --json", "nvidb queue lane box406:0 move 14 --to head")),
            Map.entry("queue lane move", List.of("nvidb queue lane box406:0 move 14 --to head",
                    "nvidb queue lane box406:0 move 14 --before 12 --json")),
            Map.entry("queue lane swap", List.of("nvidb queue lane box406:0 swap 12 14",
                    "nvidb queue lane box406:0 swap 12 14 --json")),
            Map.entry("queue lane skip", List.of("nvidb queue lane box406:0 skip", "nvidb queue lane box406:0 skip --json")),
            Map.entry("queue lane assign", List.of("nvidb queue lane box406:0 assign 15 --at 2",
                    "nvidb queue lane box406:0 assign 15 --none")),
            Map.entry("queue lane pause", List.of("nvidb queue lane box406:0 pause", "nvidb queue lane box406:0 pause --json")),
            Map.entry("queue lane resume", List.of("nvidb queue lane box406:0 resume", "nvidb queue lane box406:0 resume --json")),
            Map.entry("queue lane concurrency", List.of("nvidb queue lane box406:0 concurrency 2",
                    "nvidb queue lane box406:0 concurrency 1 --json")),
            Map.entry("queue lane runner", List.of("nvidb queue lane box406:0 runner --json",
                    "nvidb queue lane box406:0 runner restart", "nvidb queue lane box406:0 runner stop --hard")),
            Map.entry("queue drain", List.of("nvidb queue drain gpu-node", "nvidb queue drain gpu-node --json")),
            Map.entry("queue resume", List.of("nvidb queue resume gpu-node", "nvidb queue resume gpu-node --json")),
            Map.entry("queue ignore", List.of("nvidb queue ignore offline-node", "nvidb queue ignore offline-node --json")),
            Map.entry("queue unignore", List.of("nvidb queue unignore offline-node",
                    "nvidb queue nodes --include-ignored   # finds ignored nodes")),
            Map.entry("queue backup", List.of("nvidb queue backup --json",
                    "nvidb queue backup --keep 14   # keep the newest 14 generated backups",
                    "nvidb queue backup /mnt/usb/queue-before-upgrade.db")),
            Map.entry("queue restore", List.of(
                    "nvidb queue restore ~/.nvidb/backups/queue-20260102T030405.123456Z.db",
                    "nvidb queue restore /mnt/usb/queue-before-upgrade.db --json")),
            Map.entry("queue daemon", List.of("nvidb queue daemon",
                    "nvidb queue daemon --interval 30 --json   # JSON Lines: one pass a line",
                    "nvidb queue daemon --once --json          # one pass, for cron")),
            Map.entry("queue keeper", List.of("nvidb queue keeper --json", "nvidb queue keeper install --start",
                    "nvidb queue keeper logs -n 100")),
            Map.entry("queue keeper install", List.of("nvidb queue keeper install --start",
                    "nvidb queue keeper install --systemd --start --interval 30")),
            Map.entry("queue keeper status", List.of("nvidb queue keeper status",
                    "nvidb queue keeper status --json   # exit 1: nothing keeps the queue moving")),
            Map.entry("queue keeper logs", List.of("nvidb queue keeper logs", "nvidb queue keeper logs -n 200")),
            Map.entry("queue keeper stop", List.of("nvidb queue keeper stop", "nvidb queue keeper stop --json")),
            Map.entry("queue keeper ensure", List.of("nvidb queue keeper ensure",
                    "nvidb queue keeper ensure --json")),
            Map.entry("queue keeper uninstall", List.of("nvidb queue keeper uninstall",
                    "nvidb queue keeper uninstall --json")),
            Map.entry("job", List.of("nvidb job submit --json --vram 20G -- python train.py", "nvidb job ls --active",
                    "nvidb job show 12 --json")),
            Map.entry("job submit", List.of(
                    "nvidb job submit --json --name train --vram 20G -- python train.py --epochs 10",
                    "nvidb job submit --json --after 12,13 --vram 8G --note \"eval of 12 and 13\" -- python eval.py",
                    "nvidb job submit --lane box406:0 --vram 20G -n arm-a -- bash run.sh")),
            Map.entry("job ls", List.of("nvidb job ls --json --active", "nvidb job ls --held", "nvidb job ls --state failed -n 20")),
            Map.entry("job show", List.of("nvidb job show 12", "nvidb job show 12 --json")),
            Map.entry("job logs", List.of("nvidb job logs 12 -n 200", "nvidb job logs 12 --stderr",
                    "nvidb job logs 12 -f --json   # JSON Lines: new output a line, then a summary")),
            Map.entry("job wait", List.of("nvidb job wait 12 13 --json", "nvidb job wait 12 --timeout 600 --logs 40")),
            Map.entry("job cancel", List.of("nvidb job cancel 12", "nvidb job cancel 12 13 --json")),
            Map.entry("job release", List.of("nvidb job release 1418", "nvidb job release 1418 1419 --json")),
            Map.entry("job edit", List.of("nvidb job edit 1418 --drop-after 1404 --add-after 1415",
                    "nvidb job edit 1418 --add-after-any 1420 --json")),
            Map.entry("job requeue", List.of("nvidb job requeue 12", "nvidb job requeue 12 13 --json")),
            Map.entry("job result", List.of("nvidb job result 12 --json",
                    "nvidb job result 12 --set '{\"chosen_lr\": 1e-4}'")),
            Map.entry("job note", List.of("nvidb job note 12", "nvidb job note 12 --append \"loss plateaued at epoch 30\"",
                    "nvidb job note 12 --clear")),
            Map.entry("job priority", List.of("nvidb job priority 12 5", "nvidb job priority 12 +1",
                    "nvidb job priority 12 --up 2")),
            Map.entry("job purge", List.of("nvidb job purge", "nvidb job purge --state cancelled --json")),
            Map.entry("job sweep", List.of(
                    "nvidb job sweep -n lr --grid lr=1e-3,1e-4 --grid bs=32,64 -- python train.py --lr {lr} --bs {bs}",
                    "nvidb job sweep --zip seed=1,2 --zip data=a,b --max-parallel 2 -- python t.py {seed} {data}",
                    "nvidb job sweep --random 20 --seed 7 --range lr=loguniform:1e-5:1e-2 -- python t.py {lr}",
                    "nvidb job sweep --params-file runs.jsonl --dry-run -- python train.py --lr {lr}")),
            Map.entry("sweep", List.of("nvidb sweep ls", "nvidb sweep show 3 --metric loss",
                    "nvidb sweep export 3 --csv")),
            Map.entry("sweep ls", List.of("nvidb sweep ls", "nvidb sweep ls --json")),
            Map.entry("sweep show", List.of("nvidb sweep show 3", "nvidb sweep show 3 --metric eval.loss --sort -n 5",
                    "nvidb sweep show 3 --metric acc --max --json")),
            Map.entry("sweep export", List.of("nvidb sweep export 3 --csv", "nvidb sweep export 3 --jsonl")),
            Map.entry("sweep wait", List.of("nvidb sweep wait 3", "nvidb sweep wait 3 --timeout 600 --json")),
            Map.entry("sweep cancel", List.of("nvidb sweep cancel 3", "nvidb sweep cancel 3 --json")),
            Map.entry("sweep requeue", List.of("nvidb sweep requeue 3 --failed", "nvidb sweep requeue 3 --failed --cancelled --json")),
            Map.entry("plugins", List.of("nvidb plugins", "nvidb plugins --json")),
            Map.entry("completion", List.of("nvidb completion bash   # > ~/.local/share/bash-completion/completions/nvidb",
                    "nvidb completion zsh    # > ~/.zfunc/_nvidb, with fpath+=(~/.zfunc) before compinit",
                    "nvidb completion fish   # > ~/.config/fish/completions/nvidb.fish")),
            Map.entry("doctor", List.of("nvidb doctor", "nvidb doctor --json   # exit 1: a check failed")),
            Map.entry("manpages", List.of("nvidb manpages /tmp/nvidb-man   # then: man -M /tmp/nvidb-man nvidb",
                    "nvidb manpages share/man/man1")));

    private HelpText() {
    }

    /** Adds the examples to every command of {@code root}, and LANE to the lane subcommands' usage line. */
    static void apply(CommandLine root) {
        CommandSpec spec = root.getCommandSpec();
        String path = path(spec);
        List<String> examples = EXAMPLES.get(path);
        if (examples != null) {
            List<String> footer = new ArrayList<>(examples.stream().map(e -> "  " + e).toList());
            // The root's footer already holds the exit codes: the examples come first, then those.
            String[] existing = spec.usageMessage().footer();
            if (existing.length > 0) {
                footer.add("");
                footer.add(spec.usageMessage().footerHeading().replace("%n", "").strip());
                footer.addAll(List.of(existing));
            }
            spec.usageMessage().footerHeading(EXAMPLES_HEADING).footer(footer.toArray(String[]::new));
        }
        if (path.startsWith("queue lane ")) {
            laneSynopsis(root);
        }
        root.getSubcommands().values().forEach(HelpText::apply);
    }

    static String path(CommandSpec spec) {
        String q = spec.qualifiedName(" ");
        return q.equals("nvidb") ? "" : q.substring("nvidb ".length());
    }

    /**
     * Picocli writes a subcommand's usage line as its parents' names and its own, which drops
     * the LANE that {@code queue lane} takes before the subcommand; this puts it back.
     */
    private static void laneSynopsis(CommandLine sub) {
        String name = "nvidb queue lane " + sub.getCommandName();
        CommandLine.Help help = sub.getHelp();
        // Laid out as if the heading were "LANE " longer, so the lines still fit once LANE is in.
        String synopsis = help.synopsis(help.synopsisHeadingLength() + "LANE ".length());
        List<String> lines = new ArrayList<>();
        for (String line : synopsis.split("\n")) {
            lines.add(lines.isEmpty() ? line.replace(name, "nvidb queue lane LANE " + sub.getCommandName()) : line);
        }
        // customSynopsis lines are format strings: a literal % in an option label must stay one.
        sub.getCommandSpec().usageMessage().customSynopsis(lines.stream().map(l -> l.replace("%", "%%")).toArray(String[]::new));
    }
}
