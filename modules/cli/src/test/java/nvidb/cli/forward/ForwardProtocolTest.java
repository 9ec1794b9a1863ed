package nvidb.cli.forward;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ForwardProtocolTest {
    @Test
    void aHeaderComesBackAsItWasWritten() throws IOException {
        byte[] script = "#!/bin/sh\necho \u00fc\u0000\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ForwardProtocol.Header sent = new ForwardProtocol.Header(List.of("job", "submit", "", "a\nb", "日本"),
                Map.of("NVIDB_SUBMITTER", "alice@laptop:1", "PWD", "/home/alice/x y"), true, "gpu-queue",
                List.of(new ForwardProtocol.FileArgument(3, "--script=", script)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ForwardProtocol.write(new DataOutputStream(bytes), sent);
        ForwardProtocol.Header read = ForwardProtocol.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(sent.args(), read.args());
        assertEquals(sent.env(), read.env());
        assertEquals(sent.terminal(), read.terminal());
        assertEquals(sent.queueHost(), read.queueHost());
        assertEquals(3, read.files().getFirst().index());
        assertEquals("--script=", read.files().getFirst().prefix());
        assertArrayEquals(script, read.files().getFirst().content());

        ForwardProtocol.Header word = ForwardProtocol.decode(ForwardProtocol.encode(sent));
        assertEquals(sent.args(), word.args(), "as one command-line word, too");
        assertEquals(sent.env(), word.env());
        assertThrows(IOException.class, () -> ForwardProtocol.decode("not base64!"));

        byte[] cut = Arrays.copyOf(bytes.toByteArray(), bytes.size() - 1);
        assertThrows(EOFException.class, () -> ForwardProtocol.read(new DataInputStream(new ByteArrayInputStream(cut))),
                "a header cut short is no header: the host runs nothing");
        assertThrows(IOException.class, () -> ForwardProtocol.read(new DataInputStream(new ByteArrayInputStream(
                "job ls\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)))));
    }

    @Test
    void hostInputKeepsOrderAndRefusesWhatItHadToDrop() throws IOException {
        HostInput in = new HostInput();
        in.add("ab".getBytes());
        in.add("c".getBytes());
        in.end();
        assertEquals("abc", new String(in.readAllBytes()));

        HostInput big = new HostInput();
        big.add(new byte[HostInput.LIMIT - 1]);
        big.add(new byte[2]); // over the limit: dropped, and the input ends there
        big.add(new byte[1]);
        assertEquals(HostInput.LIMIT - 1, big.readNBytes(HostInput.LIMIT - 1).length);
        IOException e = assertThrows(IOException.class, big::read);
        assertTrue(e.getMessage().contains("longer than 16 MiB"), e.getMessage());
    }
}
