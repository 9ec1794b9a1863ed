package nvidb.plugins.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.spi.transport.ExecResult;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportException;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Password authentication, against an in-process MINA server (see {@link InProcessSshServer}). */
class PasswordAuthTest {

    static final Duration TEN_SECONDS = Duration.ofSeconds(10);
    static final String PASSWORD = "c0rrect-h0rse";
    static final String WRONG = "Tr0ub4dor&3-wrong";

    static InProcessSshServer server;

    @TempDir
    Path home;

    private final List<Transport> opened = new ArrayList<>();

    @BeforeAll
    static void startServer() {
        server = InProcessSshServer.start(PASSWORD);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void trustTheServer() throws Exception {
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh/known_hosts"), server.hostKeyLine() + "\n");
    }

    @AfterEach
    void closeAll() {
        opened.forEach(Transport::close);
    }

    Transport open(Object... more) {
        Map<String, Object> o = new HashMap<>(Map.of("home", home.toString(), "port", server.port()));
        for (int i = 0; i < more.length; i += 2) {
            o.put((String) more[i], more[i + 1]);
        }
        Transport t = new SshTransportFactory().open(new NodeAddress("pw-node", "127.0.0.1", server.port(), "alice", o));
        opened.add(t);
        return t;
    }

    @Test
    void theRightPasswordLogsInAndTheConnectionIsReused() throws Exception {
        int before = server.sessions();
        Transport t = open("auth", "password", "password", PASSWORD);
        assertEquals(new ExecResult(4, "hi\n", "oops\n"), t.run("echo hi\necho oops >&2\nexit 4\n", TEN_SECONDS, true));
        assertEquals("again\n", t.run("echo again", TEN_SECONDS, true).stdout());
        assertEquals(1, server.sessions() - before);
    }

    @Test
    void aWrongPasswordFailsWithoutSayingThePassword() {
        Transport t = open("auth", "password", "password", WRONG);
        TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().contains("authentication to alice@127.0.0.1:" + server.port()
                + " failed (tried: password)"), e.getMessage());
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertFalse(trace.toString().contains(WRONG), trace.toString());
        assertFalse(t.toString().contains(WRONG));
        assertFalse(SshOptions.of(new NodeAddress("n", "h", 22, null, Map.of("password", WRONG))).toString().contains(WRONG));
    }

    @Test
    void autoTriesKeysFirstThenThePassword() throws Exception {
        Path key = SshdFixture.keygen(home.resolve(".ssh/id_ed25519"));
        assertEquals("ok\n", open("password", PASSWORD).run("echo ok", TEN_SECONDS, true).stdout());

        TransportException e = assertThrows(TransportException.class,
                () -> open("password", WRONG, "identityfile", key.toString()).run("true", TEN_SECONDS, true));
        assertTrue(e.getMessage().contains("failed (tried: publickey, password)"), e.getMessage());
        assertFalse(e.getMessage().contains(WRONG));

        // key: the password is not even offered.
        TransportException keyOnly = assertThrows(TransportException.class,
                () -> open("auth", "key", "password", PASSWORD).run("true", TEN_SECONDS, true));
        assertTrue(keyOnly.getMessage().contains("failed (tried: publickey)"), keyOnly.getMessage());
    }
}
