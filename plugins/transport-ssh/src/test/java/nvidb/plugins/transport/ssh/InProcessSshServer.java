package nvidb.plugins.transport.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.pubkey.RejectAllPublickeyAuthenticator;
import org.apache.sshd.server.shell.ProcessShellCommandFactory;

/**
 * An in-process MINA SSH server on loopback that accepts one password (OpenSSH checks passwords
 * against the system's, which a test cannot set up). Exec requests run as real processes
 * ({@code sh -s} reads the script from the channel). Its host key is ECDSA P-256.
 */
final class InProcessSshServer implements AutoCloseable {

    private final SshServer server;
    private final KeyPair hostKey;
    private final AtomicInteger sessions = new AtomicInteger();

    private InProcessSshServer(String password) throws IOException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        hostKey = generator.generateKeyPair();
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPasswordAuthenticator((user, pw, session) -> password.equals(pw));
        server.setPublickeyAuthenticator(RejectAllPublickeyAuthenticator.INSTANCE);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setCommandFactory(ProcessShellCommandFactory.INSTANCE);
        server.addSessionListener(new SessionListener() {
            @Override
            public void sessionCreated(Session session) {
                sessions.incrementAndGet();
            }
        });
        server.start();
    }

    static InProcessSshServer start(String password) {
        try {
            return new InProcessSshServer(password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    int port() {
        return server.getPort();
    }

    /** How many SSH connections it has seen. */
    int sessions() {
        return sessions.get();
    }

    String hostKeyLine() {
        return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(hostKey.getPublic());
    }

    @Override
    public void close() {
        try {
            server.stop(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
