package nvidb.plugins.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.TransportException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a node entry plus {@code ~/.ssh/config} say to connect; no network involved. */
class RouteTest {

    @TempDir
    Path home;

    @BeforeEach
    void sshConfig() throws Exception {
        Files.createDirectories(home.resolve(".ssh/conf.d"));
        Files.writeString(home.resolve(".ssh/config"), """
                # global settings come first
                ServerAliveInterval 30

                Host gpu-? !gpu-9
                    HostName %h.lab.example
                    User = gpuuser
                    IdentityFile ~/.ssh/lab_%r
                    ProxyJump bastion

                Match host gpu-1 exec "false"
                    User never-from-a-match

                Host gpu-*
                    Port 2202
                    User second-value-loses
                    IdentityFile "%d/.ssh/second key"

                Include conf.d/*.conf

                Host loop-a
                    ProxyJump loop-b
                Host loop-b
                    ProxyJump loop-a
                """);
        Files.writeString(home.resolve(".ssh/conf.d/bastion.conf"), """
                Host bastion
                    HostName bastion.example.org
                    User jumper
                    Port 2222
                    IdentityFile ~/.ssh/jump_key
                    ProxyJump outer@gateway.example.org:443
                """);
    }

    Route route(String host, int port, String user, Object... options) throws TransportException {
        Map<String, Object> o = new HashMap<>();
        o.put("home", home.toString());
        for (int i = 0; i < options.length; i += 2) {
            o.put((String) options[i], options[i + 1]);
        }
        return Route.resolve(SshOptions.of(new NodeAddress("n", host, port, user, o)));
    }

    @Test
    void anAliasTakesHostNameUserPortIdentitiesAndJumpsFromTheFile() throws Exception {
        Route r = route("gpu-1", 22, null);
        Route.Hop t = r.target();
        assertEquals("gpu-1.lab.example", t.host());
        assertEquals(2202, t.port());
        assertEquals("gpuuser", t.user(), "the first value found wins; Match blocks are skipped");
        assertEquals(List.of(home.resolve(".ssh/lab_gpuuser"), home.resolve(".ssh/second key")), t.identities());

        assertEquals(2, r.jumps().size(), "bastion's own ProxyJump comes first");
        Route.Hop gateway = r.jumps().get(0);
        assertEquals("outer@gateway.example.org:443", gateway.label());
        assertEquals(t.identities(), gateway.identities(), "a jump host without IdentityFile uses the node's keys");
        Route.Hop bastion = r.jumps().get(1);
        assertEquals("jumper@bastion.example.org:2222", bastion.label());
        assertEquals(List.of(home.resolve(".ssh/jump_key")), bastion.identities());
    }

    @Test
    void whatTheServerEntrySaysWins() throws Exception {
        Route r = route("gpu-1", 2300, "me", "identityfile", List.of("~/k1", "/abs/k2"), "proxyjump", "none");
        assertEquals("me@gpu-1.lab.example:2300", r.target().label());
        assertEquals(List.of(home.resolve("k1"), Path.of("/abs/k2")), r.target().identities());
        assertEquals(List.of(), r.jumps());

        // Port 22 with `port:` written in the entry is explicit too.
        assertEquals(22, route("gpu-1", 22, null, "port", 22).target().port());
    }

    @Test
    void negatedAndUnmatchedHostsUseDefaults() throws Exception {
        Files.writeString(home.resolve(".ssh/id_rsa"), "not really a key");
        Route r = route("gpu-9", 22, null);
        assertEquals("second-value-loses@gpu-9:2202", r.target().label(),
                "gpu-9 is excluded from the first block only");
        Route plain = route("10.0.0.5", 22, null);
        assertEquals("10.0.0.5:22", plain.target().hostPort());
        assertEquals(List.of(home.resolve(".ssh/id_rsa")), plain.target().identities(),
                "the default identities that exist");
        assertEquals(List.of(), plain.jumps());
    }

    @Test
    void proxyJumpHopsAreParsedLikeOpenSsh() throws Exception {
        Route r = route("10.0.0.5", 22, "alice", "proxyjump", "u1@h1, h2:2022,[fe80::1]:23,ssh://u4@h4:24,::1");
        List<String> labels = r.jumps().stream().map(Route.Hop::label).toList();
        String me = System.getProperty("user.name");
        assertEquals(List.of("u1@h1:22", me + "@h2:2022", me + "@[fe80::1]:23", "u4@h4:24", me + "@[::1]:22"), labels);

        for (String bad : List.of("h1,,h2", "h1,none", "h1:0", "h1:http", "[::1", "@h")) {
            TransportException e = assertThrows(TransportException.class,
                    () -> route("10.0.0.5", 22, "alice", "proxyjump", bad), bad);
            assertTrue(e.getMessage().startsWith("node n: proxyjump"), e.getMessage());
        }
        TransportException loop = assertThrows(TransportException.class, () -> route("x", 22, null, "proxyjump", "loop-a"));
        assertTrue(loop.getMessage().contains("ProxyJump loop"), loop.getMessage());
    }

    @Test
    void anUnreadableConfigIsATransportErrorNamingTheFile() throws Exception {
        Files.writeString(home.resolve(".ssh/config"), "Host x\n  Port\n");
        TransportException e = assertThrows(TransportException.class, () -> route("x", 22, null));
        assertTrue(e.getMessage().contains(home.resolve(".ssh/config").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }

    @Test
    void hostPatterns() {
        assertTrue(SshConfig.matches("gpu-1", List.of("gpu-?")));
        assertTrue(SshConfig.matches("GPU-1", List.of("gpu-*")));
        assertTrue(!SshConfig.matches("gpu-9", List.of("gpu-*", "!gpu-9")));
        assertTrue(SshConfig.matches("b", List.of("a,b")));
        assertTrue(!SshConfig.matches("gpu-10", List.of("gpu-?")));
        assertEquals(List.of("IdentityFile", "a b", "c"), SshConfig.words("IdentityFile \"a b\" c # comment"));
        assertEquals(List.of("Port", "22"), SshConfig.words("Port = 22"));
        assertEquals(List.of("Port", "22"), SshConfig.words("Port=22"));
    }
}
