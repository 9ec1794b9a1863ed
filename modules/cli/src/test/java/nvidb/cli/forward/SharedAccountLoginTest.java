package nvidb.cli.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import nvidb.core.api.RemoteSettings;
import org.junit.jupiter.api.Test;

/**
 * How the shared account's login entry reads {@code SSH_ORIGINAL_COMMAND}: every line nvidb's own
 * clients send ({@link SshCommand}) is an nvidb command with its arguments; anything else is refused,
 * saying what. (Only reading: what runs, and as whom, SharedAccountLoginIT shows through a real sshd.)
 */
class SharedAccountLoginTest {
    private static final Map<String, String> ENV = Map.of("HOME", "/home/nvidb", "SSH_ORIGINAL_COMMAND", "…");

    private static RemoteSettings remote(String nvidb, String home, boolean keeper) {
        return new RemoteSettings("gpu-queue", 2222, "nvidb", nvidb, home, keeper, List.of(), "queue.yml, line 1");
    }

    @Test
    void aForwardedCommandWithOrWithoutTheKeeperPreludeIsNvidbWithTheForwardingProtocol() {
        for (boolean keeper : new boolean[] {false, true}) {
            RemoteSettings remote = remote("/opt/nvidb it's/bin/nvidb", "~/queue home", keeper);
            SharedAccountLogin.Asked asked = SharedAccountLogin.read(
                    SshCommand.forCommand(remote, List.of("job", "submit")).commandLine(), ENV);
            assertEquals(List.of("--forward-protocol=1"), asked.args());
            assertEquals(keeper, asked.keeperEnsure());
            assertEquals("/home/nvidb/queue home", asked.env().get("NVIDB_HOME"));
            assertEquals("1", asked.env().get("NVIDB_QUEUE_NO_REMOTE"));
        }
        SharedAccountLogin.Asked defaultHome = SharedAccountLogin.read(
                SshCommand.forCommand(remote("nvidb", null, true), List.of("job", "ls")).commandLine(), ENV);
        assertEquals(List.of("--forward-protocol=1"), defaultHome.args());
        assertFalse(defaultHome.env().containsKey("NVIDB_HOME"));
    }

    @Test
    void theTuiAndMcpAndAPlainCommandTypedOverSsh() {
        SharedAccountLogin.Asked tui = SharedAccountLogin.read(
                SshCommand.onTerminal(remote("~/bin/nvidb", null, true), List.of("queue"), "AAAA+/=").commandLine(), ENV);
        assertEquals(List.of("--forward-protocol=1", "--forward-header=AAAA+/="), tui.args());

        List<String> mcp = SshCommand.mcpSession(remote("/usr/bin/nvidb", "/srv/q", false), "agent 'x'");
        SharedAccountLogin.Asked relay = SharedAccountLogin.read(mcp.getLast(), ENV);
        assertEquals(List.of("mcp"), relay.args());
        assertEquals("agent 'x'", relay.env().get("NVIDB_SUBMITTER"));
        assertEquals("/srv/q", relay.env().get("NVIDB_HOME"));

        assertEquals(List.of("job", "show", "12", "--json"),
                SharedAccountLogin.read("nvidb job show 12 --json", ENV).args());
        assertEquals(List.of("job", "note", "12", "it's \"fine\""),
                SharedAccountLogin.read("/usr/local/bin/nvidb job note 12 \"it's \\\"fine\\\"\"", ENV).args());
    }

    @Test
    void anythingButNvidbIsRefusedSayingWhat() {
        Map<String, String> refusals = Map.ofEntries(
                Map.entry("sh -c id", "the program sh (not nvidb)"),
                Map.entry("bash", "the program bash (not nvidb)"),
                Map.entry("scp -t /tmp/x", "the program scp (not nvidb)"),
                Map.entry("/usr/lib/openssh/sftp-server", "(not nvidb)"),
                Map.entry("internal-sftp", "(not nvidb)"),
                Map.entry("nvidb queue status; sh", "more than one command"),
                Map.entry("nvidb queue status | sh", "'|'"),
                Map.entry("nvidb queue status > /tmp/x", "'>'"),
                Map.entry("nvidb queue status && sh", "'&&'"),
                Map.entry("nvidb $(id)", "command substitution"),
                Map.entry("nvidb `id`", "command substitution"),
                Map.entry("env LD_PRELOAD=/tmp/x.so nvidb queue status", "the variable LD_PRELOAD"),
                Map.entry("NVIDB_QUEUE_CONFIG=/tmp/q.yml nvidb queue status", "the variable NVIDB_QUEUE_CONFIG"),
                Map.entry("env JAVA_TOOL_OPTIONS=-Duser.name=alice nvidb queue status", "the variable JAVA_TOOL_OPTIONS"),
                Map.entry("exec env", "no program"),
                Map.entry("/tmp/nvidbx queue status", "the program /tmp/nvidbx"),
                Map.entry("nvidb 'unclosed", "never closed"));
        refusals.forEach((line, why) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharedAccountLogin.read(line, ENV),
                    line);
            assertTrue(e.getMessage().contains(why), line + ": " + e.getMessage());
        });
    }
}
