package nvidb.core.jobs;

import static nvidb.core.operation.ServiceContext.blankToNull;
import static nvidb.core.operation.ServiceContext.truncate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import nvidb.core.api.Caller;
import nvidb.core.api.NodeRecord;
import nvidb.core.api.NvidbException;
import nvidb.core.api.Sizes;
import nvidb.core.api.SubmitRequest;
import nvidb.core.api.Times;
import nvidb.core.config.LabSettings;
import nvidb.core.config.NvidbPaths;
import nvidb.core.config.QueueSettings;
import nvidb.core.lanes.Lanes;
import nvidb.core.operation.ServiceContext;
import nvidb.core.scheduler.VramSizing;
import nvidb.core.store.JobRepository;
import nvidb.core.store.Store;
import nvidb.core.util.Submitter;

/**
 * How a job is made from a {@link SubmitRequest}: the one rule for {@code job submit} and for each
 * run of a sweep. {@link #prepare} checks and resolves what every job of the request shares (its
 * node, lane, VRAM, dependencies, submitter), once; {@link #insert} makes one job of it. Both run
 * inside the caller's write transaction, so that a sweep's runs are all made, or none.
 */
public final class Submission {
    private static final Pattern ENV_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String SUBMIT_DIR = "NVIDB_SUBMIT_DIR";

    private final ServiceContext ctx;
    private final Store store;

    public Submission(ServiceContext ctx) {
        this.ctx = ctx;
        this.store = ctx.store();
    }

    /**
     * A request checked and resolved: what each job made of it shares.
     *
     * @param vramMb    its reservation, unless {@code auto}
     * @param vramKind  where {@code vramMb} came from ({@code explicit}, {@code default}), or null for {@code auto}
     * @param oomRetry  how many out-of-memory retries each job may make
     */
    public record Prepared(SubmitRequest request, long vramMb, String vramKind, String submitter, String node,
                           String lane, int oomRetry) {
        public boolean auto() {
            return vramKind == null;
        }
    }

    /** The reservation one job of a request gets, and what it is known by for learning. */
    public record Sized(long vramMb, JobRepository.Sizing sizing) {
    }

    /** The checks that need no database: bad input is refused before any transaction. */
    public static void check(SubmitRequest r, boolean commandGiven) {
        if (commandGiven && (r.command() == null || r.command().isBlank())) {
            throw NvidbException.usage("nothing to run: pass a command after --, or --script FILE");
        }
        if (r.gpus() < 0) {
            throw NvidbException.usage("--gpus cannot be negative (use 0 for CPU-only work)");
        }
        if (r.timeoutSeconds() != null && r.timeoutSeconds() <= 0) {
            throw NvidbException.usage("--timeout must be a positive number of seconds, not " + r.timeoutSeconds());
        }
        if (r.retries() < 0) {
            throw NvidbException.usage("--retries cannot be negative, not " + r.retries());
        }
        for (String key : r.env().keySet()) {
            if (!ENV_KEY.matcher(key).matches()) {
                throw NvidbException.usage("--env name '" + key + "' is not a valid variable name "
                        + "(letters, digits and _, not starting with a digit)");
            }
        }
        if (r.oomRetry() != null && r.oomRetry() < 0) {
            throw NvidbException.usage("--oom-retry cannot be negative, not " + r.oomRetry());
        }
        if (r.idempotencyKey() != null && r.idempotencyKey().isBlank()) {
            throw NvidbException.usage("--idempotency-key must not be empty");
        }
    }

    /** Resolves the node, the lane (created on first use) and the rest; inside a write transaction. */
    public Prepared prepare(SubmitRequest r) {
        QueueSettings settings = ctx.config().settings();
        boolean auto = r.autoVram() || (r.vram() == null && settings.learning().defaultAuto());
        long vram = auto ? 0 : r.vram() == null ? settings.defaultVramMb() : Sizes.parseMb(r.vram());
        String vramKind = auto ? null : r.vram() == null ? "default" : "explicit";
        String submitter = r.submitter() != null && !r.submitter().isBlank() ? r.submitter() : Submitter.of(ctx.env());
        String node = r.node() == null ? null : resolveSubmitNode(r.node());
        String lane = null;
        if (r.lane() != null) {
            Lanes.Resolved resolved = Lanes.of(ctx).resolveOrCreate(r.lane());
            if (node != null && !node.equals(resolved.node())) {
                throw NvidbException.usage("lane '" + resolved.name() + "' is on '" + resolved.node()
                        + "', but --node asked for '" + node + "'");
            }
            if (r.gpus() != resolved.gpuIds().size()) {
                throw NvidbException.usage("the job needs " + r.gpus() + " GPU(s) but lane '" + resolved.name()
                        + "' has " + resolved.gpuIds().size() + "; pass --gpus " + resolved.gpuIds().size());
            }
            lane = resolved.name();
            node = resolved.node();
        } else if (r.at() != null) {
            throw NvidbException.usage("--at places a job within a lane; pass --lane NODE:GPU too");
        }
        ctx.requireJobsExist(r.after());
        ctx.requireJobsExist(r.afterAny());
        return new Prepared(r, vram, vramKind, submitter, node, lane,
                r.oomRetry() != null ? r.oomRetry() : settings.learning().oomRetry());
    }

    /**
     * Makes one job of a prepared request, inside the caller's transaction.
     *
     * @param extraEnv added to the request's {@code --env} (a sweep's parameters)
     * @param at       where in the lane, or null for its tail
     * @return the new job's id
     */
    public long insert(Prepared p, String name, String command, Map<String, String> extraEnv, String at,
                       String idempotencyKey) {
        SubmitRequest r = p.request();
        Long laneSeq = p.lane() == null ? null : store.lanes.nextSeq(p.lane());
        String label = name != null && !name.isEmpty() ? name : truncate(command, 80);
        Sized sized = size(p, name, command, null);
        long id = ctx.lifecycle().submit(new JobRepository.NewJob(name == null ? "" : name, command,
                workdir(r), env(r, extraEnv), r.priority(), r.gpus(), sized.vramMb(), p.node(), r.after(),
                r.afterAny(), r.timeoutSeconds(), p.submitter(), r.tags(), p.lane(), laneSeq, r.retries(),
                blankToNull(r.note()), idempotencyKey, sized.sizing(), account()), label, Times.now());
        if (p.lane() != null && at != null) {
            Lanes.of(ctx).move(id, p.lane(), at, Times.now());
        }
        if (r.noBurst()) {
            store.batch.noBurst(id, Times.now());
        }
        return id;
    }

    /**
     * The reservation of one job of {@code p} named {@code name} running {@code command} (a run of
     * sweep {@code sweepId}, or null): as given, or learned from its family ({@code --vram auto}).
     */
    public Sized size(Prepared p, String name, String command, Long sweepId) {
        String nameFamily = VramSizing.nameFamily(name);
        String commandFamily = VramSizing.commandFamily(command);
        long vram = p.vramMb();
        String source;
        if (p.auto()) {
            VramSizing.Choice choice = new VramSizing(store, ctx.config().settings()).auto(p.request().gpus(), nameFamily,
                    sweepId, commandFamily, p.node());
            vram = choice.vramMb();
            source = choice.source();
        } else {
            source = VramSizing.source(p.vramKind());
        }
        return new Sized(vram, new JobRepository.Sizing(source, nameFamily, commandFamily, p.oomRetry()));
    }

    /**
     * The caller's {@code queue.users} limits on submitting {@code jobs} jobs of {@code p}, inside
     * the write transaction that makes them (so that two submits at once cannot both pass the last
     * place): refused beyond {@code max_pending} waiting jobs, or when one job is bigger than the
     * user may ever hold. Nothing is made when refused.
     */
    public void admit(Prepared p, int jobs) {
        String user = account();
        LabSettings.UserPolicy policy = ctx.config().settings().lab().of(user);
        if (!policy.limits()) {
            return;
        }
        SubmitRequest r = p.request();
        if (policy.maxGpus() != null && r.gpus() > policy.maxGpus()) {
            throw NvidbException.quota("quota: " + user + " may hold " + policy.maxGpus() + " GPUs at once (queue.users"
                    + " max_gpus) and the job asks for " + r.gpus());
        }
        if (policy.maxVramMb() != null && !p.auto() && p.vramMb() * r.gpus() > policy.maxVramMb()) {
            throw NvidbException.quota("quota: " + user + " may hold " + Sizes.format(policy.maxVramMb()) + " of VRAM at"
                    + " once (queue.users max_vram) and the job asks for " + Sizes.format(p.vramMb() * r.gpus()));
        }
        if (policy.maxPending() != null) {
            int waiting = store.lab.pendingOf(user);
            if (waiting + jobs > policy.maxPending()) {
                throw NvidbException.quota("quota: " + user + " has " + waiting + " of " + policy.maxPending()
                        + " jobs waiting (queue.users max_pending)" + (jobs > 1 ? " and this adds " + jobs : "")
                        + "; submit again when some have started, or cancel some");
            }
        }
    }

    /** The OS account asking: the operation's caller's, else this process's. */
    private static String account() {
        Caller caller = Caller.acting();
        return caller != null ? caller.account() : Caller.osAccount();
    }

    /** {@code --workdir} with {@code ~} expanded to the submitting user's home. */
    private String workdir(SubmitRequest r) {
        return r.workdir() == null ? null : NvidbPaths.expandHome(r.workdir(), ctx.env());
    }

    /**
     * The job's {@code --env}, plus {@code NVIDB_SUBMIT_DIR}: the directory the submit was made
     * from ({@code PWD}, which the command line sets to its real working directory). run.sh runs
     * a job without {@code --workdir} there when it exists on the node, else in {@code $HOME}:
     * one rule for a launch and a lane runner alike. An {@code --env NVIDB_SUBMIT_DIR} wins.
     */
    private Map<String, String> env(SubmitRequest r, Map<String, String> extra) {
        Map<String, String> env = new LinkedHashMap<>(r.env());
        env.putAll(extra);
        String pwd = ctx.env().get("PWD");
        if (pwd != null && pwd.startsWith("/")) {
            env.putIfAbsent(SUBMIT_DIR, pwd);
        }
        return env;
    }

    private String resolveSubmitNode(String typed) {
        String name = ctx.resolveNode(typed);
        boolean configured = ctx.config().servers().stream().anyMatch(s -> s.name().equals(name));
        if (!configured) {
            throw NvidbException.usage("node '" + name + "' is no longer configured; add it back to servers: "
                    + "or pick another node");
        }
        NodeRecord node = store.nodes.find(name).orElseThrow();
        if (node.ignored()) {
            throw NvidbException.usage("node '" + name + "' is ignored; run `nvidb queue unignore " + name
                    + "` before submitting to it");
        }
        return name;
    }
}
