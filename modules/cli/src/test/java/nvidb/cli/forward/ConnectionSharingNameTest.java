package nvidb.cli.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import nvidb.core.api.RemoteSettings;
import org.junit.jupiter.api.Test;

/** The control socket's name: one per login (user, host, port), the same in every command. */
class ConnectionSharingNameTest {
    private static RemoteSettings remote(String user, String host, Integer port, String nvidb) {
        return new RemoteSettings(host, port, user, nvidb, null, false, List.of(), "queue.yml, line 1");
    }

    @Test
    void aLoginAlwaysGetsTheSameShortName() {
        String name = ConnectionSharing.name(remote("ana", "gpu-queue", 22, "nvidb"));
        assertTrue(name.matches("cm-[0-9a-f]{12}"), name);
        assertEquals(name, ConnectionSharing.name(remote("ana", "gpu-queue", 22, "/opt/nvidb/bin/nvidb")),
                "what runs on the host is no part of the login");
        // FNV-1a of "ana@gpu-queue:22", worked out by hand from its definition: the name outlives one build.
        assertEquals("cm-" + fnv1a("ana@gpu-queue:22").substring(0, 12), name);
    }

    @Test
    void everyPartOfTheLoginTellsTwoNamesApart() {
        Set<String> names = new HashSet<>();
        for (String user : new String[] {null, "ana", "bo"}) {
            for (String host : List.of("gpu-queue", "gpu-queue2", "10.0.0.7")) {
                for (Integer port : new Integer[] {null, 22, 2222}) {
                    names.add(ConnectionSharing.name(remote(user, host, port, "nvidb")));
                }
            }
        }
        assertEquals(27, names.size(), names.toString());
        assertNotEquals(ConnectionSharing.name(remote("ana", "gpu", 22, "nvidb")),
                ConnectionSharing.name(remote("an", "agpu", 22, "nvidb")));
    }

    /** The textbook loop, over BigInteger so that it shares no code or overflow trick with the one under test. */
    private static String fnv1a(String s) {
        java.math.BigInteger hash = new java.math.BigInteger("cbf29ce484222325", 16);
        java.math.BigInteger prime = new java.math.BigInteger("100000001b3", 16);
        java.math.BigInteger mod = java.math.BigInteger.ONE.shiftLeft(64);
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            hash = hash.xor(java.math.BigInteger.valueOf(b & 0xff)).multiply(prime).mod(mod);
        }
        return String.format("%016x", hash);
    }
}
