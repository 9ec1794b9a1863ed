package nvidb.cli.forward;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.cli.context.CliContext;
import nvidb.cli.output.Output;
import nvidb.core.api.ErrorCode;
import sun.misc.Signal;

/**
 * The queue host's side of a forwarded command ({@code nvidb --forward-protocol=1}, run by the
 * client's ssh): answers the handshake, reads the header, and sets up the command line
 * as if typed here by the client: its environment, its files, its stdin, its Ctrl-C. The command
 * itself then runs as any other ({@code Main} runs it).
 */
public final class ForwardedHost {
    /**
     * One accepted forwarded command: run {@link #args()} in {@link #context()}, unless
     * {@link #refusal()} is an exit code to end with at once.
     */
    public record Session(String[] args, CliContext context, Integer refusal, List<Path> files, Relay relay)
            implements AutoCloseable {
        /**
         * Starts taking the client's frames (stdin, Ctrl-C). Called once the command's shutdown
         * hook is in place, so that a Ctrl-C relayed at once still ends it the way a local one would.
         */
        public void listen() {
            if (relay != null) {
                Thread.ofPlatform().daemon().name("nvidb-forwarded-stdin").start(relay::run);
            }
        }

        /**
         * The command is done: stops taking frames, and removes the files the client sent (a
         * script), which were the command's input only.
         */
        @Override
        public void close() {
            if (relay != null) {
                relay.stop();
            }
            for (Path file : files) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a temporary file; the system's tmp cleaning gets it
                }
            }
        }
    }

    /** What a client's header carries (ForwardClient.carriedEnv): all a key's user may set. */
    private static final java.util.Set<String> CARRIED = java.util.Set.of("NVIDB_SUBMITTER", "PWD", "NO_COLOR", "COLUMNS");

    private ForwardedHost() {
    }

    /** Whether this command line was sent by a forwarding client. */
    public static boolean handles(String[] args) {
        return args.length > 0 && args[0].startsWith(ForwardProtocol.OPTION_PREFIX);
    }

    public static Session accept(String[] args, Map<String, String> env, Output output) {
        if (!args[0].equals(ForwardProtocol.OPTION)) {
            CliContext plain = new CliContext(env, output);
            int code = output.error(ErrorCode.UNAVAILABLE, "this nvidb takes forwarding protocol "
                    + ForwardProtocol.VERSION + ", and the client asked for " + args[0].substring(
                    ForwardProtocol.OPTION_PREFIX.length()) + ": install the same nvidb version on both machines");
            return new Session(args, plain, code, List.of(), null);
        }
        output.raw(ForwardProtocol.HANDSHAKE + "\n");
        // On a terminal (the TUI) the header is the next argument and stdin is the terminal; else
        // the header and then the frames come over stdin.
        boolean terminal = args.length > 1 && args[1].startsWith(ForwardProtocol.HEADER_OPTION);
        FileChannel channel = terminal ? null : new FileInputStream(FileDescriptor.in).getChannel();
        DataInputStream in = terminal ? null : new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
        List<Path> files = new ArrayList<>();
        List<String> command;
        ForwardProtocol.Header header;
        try {
            header = terminal ? ForwardProtocol.decode(args[1].substring(ForwardProtocol.HEADER_OPTION.length()))
                    : ForwardProtocol.read(in);
            command = new ArrayList<>(header.args());
            for (ForwardProtocol.FileArgument f : header.files()) {
                if (f.index() < 0 || f.index() >= command.size()) {
                    throw new IOException("a file for argument " + f.index() + " of " + command.size());
                }
                Path file = Files.createTempFile("nvidb-forwarded-", ".script",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                files.add(file);
                Files.write(file, f.content());
                command.set(f.index(), f.prefix() + file);
            }
        } catch (IOException e) {
            // The client went away (or is no nvidb) before it said all: nothing is run for it.
            Session nothing = new Session(args, new CliContext(env, output), ErrorCode.INTERRUPTED.exitCode(), files,
                    null);
            nothing.close();
            return nothing;
        }
        Map<String, String> commandEnv = new HashMap<>(env);
        header.env().forEach((name, value) -> {
            // For a key's user (the shared account's login) only what a client carries: no variable
            // that picks the queue's files, which that account's own environment names.
            if (nvidb.core.api.Caller.vouched() == null || CARRIED.contains(name)) {
                commandEnv.put(name, value);
            }
        });
        output.setTerminal(header.terminal());
        if (terminal) {
            CliContext context = new CliContext(commandEnv, output, System.in, true);
            context.setQueueHost(header.queueHost());
            return new Session(command.toArray(String[]::new), context, null, files, null);
        }
        HostInput stdin = new HostInput();
        System.setIn(stdin);
        CliContext context = new CliContext(commandEnv, output, stdin, true);
        context.setQueueHost(header.queueHost());
        return new Session(command.toArray(String[]::new), context, null, files, new Relay(channel, in, stdin));
    }

    /**
     * The client's frames, for as long as the command runs: its stdin, and its signals raised
     * here so that the command stops exactly as it would on a Ctrl-C of its own. The stream
     * ending without a word is the client gone (a dropped connection): a hang-up.
     *
     * <p>Read through a channel so that {@link #stop()} can end a read that blocks: the JVM waits
     * up to 300 ms at exit for a thread stuck in a native read, which every command would pay.
     */
    public static final class Relay {
        private final FileChannel channel;
        private final DataInputStream in;
        private final HostInput stdin;
        private volatile boolean stopped;

        Relay(FileChannel channel, DataInputStream in, HostInput stdin) {
            this.channel = channel;
            this.in = in;
            this.stdin = stdin;
        }

        void run() {
            try {
                while (true) {
                    byte kind = in.readByte();
                    switch (kind) {
                        case ForwardProtocol.DATA -> stdin.add(ForwardProtocol.readBlock(in));
                        case ForwardProtocol.END -> stdin.end();
                        case ForwardProtocol.INTERRUPT -> raise("INT");
                        case ForwardProtocol.TERMINATE -> raise("TERM");
                        default -> throw new IOException("an unknown frame " + kind);
                    }
                }
            } catch (IOException e) {
                stdin.end();
                if (!stopped) {
                    raise("HUP");
                }
            }
        }

        void stop() {
            stopped = true;
            try {
                channel.close();
            } catch (IOException e) {
                // the process ends next
            }
        }
    }

    private static void raise(String signal) {
        try {
            Signal.raise(new Signal(signal));
        } catch (IllegalArgumentException e) {
            // not a signal on this system: nothing to relay it with
        }
    }
}
