package nvidb.plugins.slurm;

import java.util.Map;
import nvidb.spi.batch.BatchScheduler;
import nvidb.spi.batch.BatchSchedulerFactory;
import nvidb.spi.config.ConfigSection;

/**
 * {@code transport: slurm}: a Slurm partition as one node. Its scripts run on the cluster's login,
 * through the transport the entry's {@code login:} names and core opens: {@code ssh} (the default;
 * host, user, port and keys as for any ssh node, {@code ~/.ssh/config} honoured) or {@code local}
 * (this host has the Slurm clients). Its own keys:
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
public final class SlurmSchedulerFactory implements BatchSchedulerFactory {

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public void validate(ConfigSection server) {
        SlurmSettings.validate(server);
    }

    @Override
    public BatchScheduler create(Map<String, Object> entry) {
        return new SlurmScheduler(SlurmSettings.of(entry));
    }
}
