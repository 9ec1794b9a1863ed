package nvidb.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import nvidb.testkit.SshdFixture;

/**
 * The lane runner scenarios on a node reached over SSH: a real OpenSSH sshd on loopback; the
 * runner is started, supplied, stopped and read through the ssh transport.
 */
class SshLaneRunnerTest extends LaneRunnerScenarios {
    SshdFixture sshd;

    @Override
    void startNode() {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        sshd = SshdFixture.launch();
    }

    @Override
    void stopNode() {
        if (sshd != null) {
            sshd.close();
        }
    }

    @Override
    String serverKeys() throws Exception {
        Files.writeString(tmp.resolve("known_hosts"), sshd.hostKeyLine() + "\n");
        return "    hostname: 127.0.0.1\n    port: " + sshd.port() + "\n    username: " + sshd.user() + "\n    auth: key\n"
                + "    identityfile: " + sshd.userKey() + "\n    known_hosts: " + tmp.resolve("known_hosts") + "\n"
                + "    home: " + tmp.resolve("client-home") + "\n    connect_timeout: 5\n";
    }
}
