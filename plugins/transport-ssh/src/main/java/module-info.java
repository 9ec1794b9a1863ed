/**
 * The {@code ssh} transport: runs a node's scripts with {@code sh -s} over SSH (Apache MINA SSHD
 * client), one connection per node, checking host keys against OpenSSH's {@code known_hosts} and
 * honouring {@code ~/.ssh/config}. Nothing is exported; core finds it through
 * {@link java.util.ServiceLoader}.
 */
module nvidb.plugins.transport.ssh {
    requires nvidb.spi;
    // sshd-common and sshd-core merged (the separate jars split packages; see the POM).
    requires org.apache.sshd.osgi;
    // sshd looks ssh-ed25519 support up by class name; on the module path that automatic module
    // must be in the graph for the lookup to find it.
    requires net.i2p.crypto.eddsa;
    requires org.slf4j;
    // sshd's ExceptionUtils unwraps java.rmi.ServerException on every connect: without java.rmi in
    // the graph an I/O thread dies of NoClassDefFoundError and the connect hangs to its timeout.
    // (An automatic module resolves no JDK module; this explicit one does it for sshd.)
    requires java.rmi;

    provides nvidb.spi.transport.TransportFactory with nvidb.plugins.transport.ssh.SshTransportFactory;
}
