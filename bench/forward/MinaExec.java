import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.EnumSet;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * Benchmark helper of bench/remote-forward.sh: what a forwarded command would cost through Apache
 * MINA SSHD in the client JVM instead of the user's ssh: a fresh JVM connects (known_hosts
 * checked, key auth), runs one command, streams its output and exits with its status.
 *
 *   java -cp SSHD_JARS:CLASSES MinaExec USER HOST PORT KEY KNOWN_HOSTS COMMAND
 */
public final class MinaExec {
    public static void main(String[] a) throws Exception {
        SshClient client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE, Path.of(a[4])));
        client.start();
        int status;
        try (ClientSession session = client.connect(a[0], new InetSocketAddress(a[1], Integer.parseInt(a[2])))
                .verify(Duration.ofSeconds(10)).getSession()) {
            try (InputStream in = Files.newInputStream(Path.of(a[3]))) {
                for (KeyPair k : SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(a[3]), in,
                        FilePasswordProvider.EMPTY)) {
                    session.addPublicKeyIdentity(k);
                }
            }
            session.auth().verify(Duration.ofSeconds(10));
            try (ChannelExec exec = session.createExecChannel(a[5])) {
                exec.setOut(System.out);
                exec.setErr(System.err);
                exec.open().verify(Duration.ofSeconds(10));
                exec.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), 0);
                Integer s = exec.getExitStatus();
                status = s == null ? 255 : s;
            }
        }
        client.stop();
        System.out.flush();
        System.exit(status);
    }
}
