package nvidb.plugins.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node that goes away, comes back, breaks a connection mid-script, or changes its host key. */
class SshReconnectTest {

    static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @TempDir
    Path home;

    SshdFixture sshd;
    private final List<Transport> opened = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        sshd = SshdFixture.launch();
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(knownHosts(), sshd.hostKeyLine() + "\n");
    }

    @AfterEach
    void stop() {
        opened.forEach(Transport::close);
        sshd.close();
    }

    Path knownHosts() {
        return home.resolve(".ssh/known_hosts");
    }

    Transport open(Object... more) {
        Map<String, Object> o = new HashMap<>(Map.of("home", home.toString(), "port", sshd.port(),
                "identityfile", sshd.userKey().toString()));
        for (int i = 0; i < more.length; i += 2) {
            o.put((String) more[i], more[i + 1]);
        }
        Transport t = new SshTransportFactory().open(new NodeAddress("gpu1", "127.0.0.1", sshd.port(), sshd.user(), o));
        opened.add(t);
        return t;
    }

    @Test
    void aNodeThatGoesAwayIsReportedAndReconnectedWhenItComesBack() throws Exception {
        Transport t = open();
        assertEquals("1\n", t.run("echo 1", TEN_SECONDS, false).stdout());

        sshd.stop();
        TransportException down = assertThrows(TransportException.class, () -> t.run("echo 2", TEN_SECONDS, false));
        assertTrue(down.getMessage().contains("cannot connect to 127.0.0.1:" + sshd.port()), down.getMessage());

        sshd.start();
        assertEquals("3\n", t.run("echo 3", TEN_SECONDS, false).stdout());
        assertEquals(2, sshd.acceptedLogins());
    }

    /** The script kills the sshd process that serves its connection, the first time only. */
    private String breaksItsConnectionOnce() {
        Path mark = home.resolve("ran-once");
        return "if [ -e '" + mark + "' ]; then echo second run; exit 0; fi\n"
                + "touch '" + mark + "'\nkill -9 $PPID\nsleep 5\n";
    }

    @Test
    void anIdempotentScriptIsRetriedOnceOnAFreshConnectionWhenTheConnectionBreaks() throws Exception {
        Transport t = open();
        ExecResult r = t.run(breaksItsConnectionOnce(), TEN_SECONDS, true);
        assertEquals(new ExecResult(0, "second run\n", ""), r);
        assertEquals(2, sshd.acceptedLogins());
    }

    @Test
    void aScriptThatIsNotIdempotentIsNotRetried() throws Exception {
        Transport t = open();
        TransportException e = assertThrows(TransportException.class,
                () -> t.run(breaksItsConnectionOnce(), TEN_SECONDS, false));
        assertTrue(e.getMessage().contains("connection broke while a script ran") && e.getMessage().contains("not retried"),
                e.getMessage());
        assertEquals(1, sshd.acceptedLogins());
        // The transport itself recovers at the next round trip.
        assertEquals("second run\n", t.run(breaksItsConnectionOnce(), TEN_SECONDS, false).stdout());
    }

    @Test
    void aChangedHostKeyIsRefusedLoudlyEvenWithAcceptNew() throws Exception {
        Transport strict = open();
        Transport acceptNew = open("host_key_check", "accept-new");
        strict.run("true", TEN_SECONDS, true);
        acceptNew.run("true", TEN_SECONDS, true);
        String oldFingerprint = sshd.hostKeyFingerprint();

        sshd.stop();
        sshd.newHostKey();
        sshd.start();
        String before = Files.readString(knownHosts());

        for (Transport t : List.of(strict, acceptNew, open("host_key_check", "accept-new"))) {
            TransportException e = assertThrows(TransportException.class, () -> t.run("true", TEN_SECONDS, true));
            String m = e.getMessage();
            assertTrue(m.contains("HOST KEY CHANGED for [127.0.0.1]:" + sshd.port()), m);
            assertTrue(m.contains(sshd.hostKeyFingerprint()) && m.contains(oldFingerprint), m);
            assertTrue(m.contains("ssh-keygen -R '[127.0.0.1]:" + sshd.port() + "'"), m);
        }
        assertEquals(before, Files.readString(knownHosts()), "a changed key is never written");
        assertEquals(2, sshd.acceptedLogins(), "no login after the change");

        // Only off skips the check.
        assertEquals("ok\n", open("host_key_check", "off").run("echo ok", TEN_SECONDS, true).stdout());
    }
}
