package nvidb.plugins.slurm;

import java.util.Map;
import java.util.Optional;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.config.ConfigSection;
import nvidb.spi.transport.NodeAddress;
import nvidb.spi.transport.Transport;
import nvidb.spi.transport.TransportFactory;

/**
 * {@code transport: slurm}: a Slurm partition as one node. Its scripts run on the cluster's login,
 * reached through another transport: {@code login: ssh} (the default; host, user, port and keys as
 * for any ssh node, {@code ~/.ssh/config} honoured) or {@code login: local} (this host has the
 * Slurm clients). Its own keys:
 * <ul>
 *   <li>{@code partition} (required): where jobs go ({@code sbatch --partition}).</li>
 *   <li>{@code account}, {@code qos}, {@code constraint}: passed to sbatch when given;
 *       {@code extra_args}: further sbatch arguments, a list.</li>
 *   <li>{@code gpu_vram}: memory of one GPU there, for {@code --vram} fit.</li>
 *   <li>{@code max_jobs}: nvidb jobs it may hold in Slurm at once (pending and running); 0, the
 *       default, sets no limit.</li>
 *   <li>{@code burst}: pool jobs no workstation can take may overflow here (default false).</li>
 *   <li>{@code gres}: the GRES name of GPUs (default {@code gpu}); {@code slurm_conf}: the Slurm
 *       clients' configuration when not the login's default; {@code slurm_timeout}: seconds
 *       each Slurm client call may take (default 20).</li>
 * </ul>
 * {@code job_root} must be on the cluster's shared filesystem: run.sh, its output and its exit
 * code are written there on the compute node and read on the login.
 */
public final class SlurmTransportFactory implements TransportFactory {

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public void validate(ConfigSection server) {
        SlurmSettings.validate(server);
    }

    @Override
    public Optional<String> login(Map<String, Object> entry) {
        Object login = entry.get("login");
        return Optional.of(login == null ? "ssh" : String.valueOf(login));
    }

    /** A slurm node is always reached through its login: core opens that and calls {@link #open(NodeAddress, Transport)}. */
    @Override
    public Transport open(NodeAddress address) {
        throw new IllegalStateException("a slurm node is reached through its login transport (login: ssh or local)");
    }

    /** The login transport runs every script: sbatch, squeue and scancel are the login's commands. */
    @Override
    public Transport open(NodeAddress address, Transport login) {
        return login;
    }

    @Override
    public Optional<BatchScheduler> batchScheduler(NodeAddress address) {
        return Optional.of(new SlurmScheduler(SlurmSettings.of(address.options())));
    }
}
