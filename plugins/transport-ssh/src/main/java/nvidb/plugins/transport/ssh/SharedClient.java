package nvidb.plugins.transport.ssh;

import java.util.Map;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.kex.KexProposalOption;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.client.auth.password.PasswordIdentityProvider;

/**
 * The one MINA {@link SshClient} of this JVM, shared by every open SSH transport: started when the
 * first transport connects and stopped when the last one closes, so a CLI process leaves no MINA
 * thread behind (MINA's threads are daemon threads anyway).
 *
 * <p>The client trusts nothing by itself: its host key verifier and its key-exchange hook
 * delegate to the {@link HopContext} each connection carries, and refuse a connection without
 * one. It has no keys, no passwords, no ssh_config and no agent of its own; every connection gets
 * exactly the identities its transport gives it.
 */
final class SharedClient {

    private static SshClient client;
    private static int users;

    private SharedClient() {
    }

    static synchronized SshClient acquire() {
        if (client == null) {
            client = create();
            client.start();
        }
        users++;
        return client;
    }

    static synchronized void release(SshClient c) {
        if (c != client || users == 0) {
            return;
        }
        if (--users == 0) {
            SshClient stopping = client;
            client = null;
            stopping.stop();
        }
    }

    /** Whether a client is running (for tests). */
    static synchronized boolean running() {
        return client != null;
    }

    private static SshClient create() {
        SshClient c = SshClient.setUpDefaultClient();
        c.setServerKeyVerifier((session, remote, key) -> {
            HopContext ctx = context(session);
            return ctx != null && ctx.verify(key);
        });
        c.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        c.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        c.setPasswordIdentityProvider(PasswordIdentityProvider.EMPTY_PASSWORDS_PROVIDER);
        c.setFilePasswordProvider(FilePasswordProvider.EMPTY);
        c.setUserInteraction(null);
        c.addSessionListener(new SessionListener() {
            @Override
            public void sessionNegotiationOptionsCreated(Session session, Map<KexProposalOption, String> proposal) {
                HopContext ctx = context(session);
                if (ctx != null) {
                    proposal.put(KexProposalOption.SERVERKEYS,
                            ctx.orderHostKeyAlgorithms(proposal.get(KexProposalOption.SERVERKEYS)));
                }
            }
        });
        return c;
    }

    static HopContext context(Session session) {
        if (session instanceof ClientSession cs) {
            AttributeRepository repo = cs.getConnectionContext();
            return repo == null ? null : repo.getAttribute(HopContext.KEY);
        }
        return null;
    }
}
