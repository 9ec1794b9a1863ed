package nvidb.cli.forward;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a client and its queue host say to each other around a forwarded command, beside the
 * command's own bytes, all within the one SSH session that runs it.
 *
 * <ul>
 *   <li>The client runs {@code nvidb --forward-protocol=1} there. An nvidb that predates
 *       forwarding refuses the unknown option before it does anything, which is how the client
 *       learns, in the same round trip, that the host's nvidb is too old.</li>
 *   <li>The host's stdout starts with the line {@link #HANDSHAKE}; the client removes it (and any
 *       lines a login script printed before it) and passes on everything after it unchanged.</li>
 *   <li>The client's stdin to the host is a {@link Header} (the command line itself, the
 *       environment that travels with it, files it names), then frames: {@link #DATA} (the client's
 *       own stdin, for the command's), {@link #END} (that stdin ended), {@link #INTERRUPT} and
 *       {@link #TERMINATE} (Ctrl-C or SIGTERM on the client, raised on the host command). The
 *       stream ending without a word means the client is gone: the host command is hung up.</li>
 * </ul>
 *
 * <p>The command line travels in the header, not on ssh's command line: no shell on the way
 * sees it (nothing to quote, nothing to inject), and its bytes do not depend on the host's locale
 * (an ssh session often has none, and a JVM then reads its own arguments as ASCII).
 */
final class ForwardProtocol {
    static final int VERSION = 1;
    /** The first argument on the host; nothing else selects the host side. */
    static final String OPTION = "--forward-protocol=" + VERSION;
    static final String OPTION_PREFIX = "--forward-protocol=";
    /**
     * The second argument on the host when the header travels on the command line instead (base64,
     * so no shell and no locale touch it): the TUI, whose stdin is a terminal there, not frames.
     */
    static final String HEADER_OPTION = "--forward-header=";
    /** The host's first line on stdout. */
    static final String HANDSHAKE = "nvidb-forwarded/" + VERSION;

    static final int MAGIC = 0x4e564631; // "NVF1"
    static final byte DATA = 'd';
    static final byte END = 'e';
    static final byte INTERRUPT = 'i';
    static final byte TERMINATE = 't';

    /** The largest header or frame either side accepts: a script, a chunk of stdin. */
    static final int MAX_BLOCK = 64 * 1024 * 1024;

    private ForwardProtocol() {
    }

    /**
     * A file named on the client's command line, sent by content: the host writes it to a file
     * of its own and puts {@code prefix + thatPath} in place of argument {@code index}.
     */
    record FileArgument(int index, String prefix, byte[] content) {
    }

    /**
     * @param args      the command line, as the client was given it
     * @param env       variables laid over the host command's environment (NVIDB_SUBMITTER, PWD, …)
     * @param terminal  whether the client's stderr is a terminal (status lines while waiting)
     * @param queueHost the name the client knows the queue host by, for {@code queue status}
     */
    record Header(List<String> args, Map<String, String> env, boolean terminal, String queueHost,
                  List<FileArgument> files) {
        Header {
            args = List.copyOf(args);
            env = Map.copyOf(env);
            files = List.copyOf(files);
        }
    }

    static void write(DataOutputStream out, Header h) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(h.args().size());
        for (String arg : h.args()) {
            writeString(out, arg);
        }
        out.writeInt(h.env().size());
        for (Map.Entry<String, String> e : h.env().entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
        out.writeBoolean(h.terminal());
        writeString(out, h.queueHost());
        out.writeInt(h.files().size());
        for (FileArgument f : h.files()) {
            out.writeInt(f.index());
            writeString(out, f.prefix());
            writeBlock(out, f.content());
        }
        out.flush();
    }

    static Header read(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a forwarded command's header");
        }
        int a = count(in);
        List<String> args = new ArrayList<>();
        for (int i = 0; i < a; i++) {
            args.add(readString(in));
        }
        int n = count(in);
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            env.put(readString(in), readString(in));
        }
        boolean terminal = in.readBoolean();
        String queueHost = readString(in);
        int m = count(in);
        List<FileArgument> files = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            files.add(new FileArgument(in.readInt(), readString(in), readBlock(in)));
        }
        return new Header(args, env, terminal, queueHost, files);
    }

    /** The header as one command-line word: base64 of what {@link #write} writes. */
    static String encode(Header h) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            write(new DataOutputStream(bytes), h);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array does not fail
        }
        return java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    static Header decode(String word) throws IOException {
        try {
            return read(new DataInputStream(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(word))));
        } catch (IllegalArgumentException e) {
            throw new IOException("a header that is not base64", e);
        }
    }

    static void writeBlock(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readBlock(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BLOCK) {
            throw new IOException("a block of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes); // a stream that ends early is a broken header, not a short one
        return bytes;
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 10_000) {
            throw new IOException("a count of " + n);
        }
        return n;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        writeBlock(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(readBlock(in), StandardCharsets.UTF_8);
    }
}
