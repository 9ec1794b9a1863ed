package nvidb.cli.commands;

import java.time.Instant;
import java.util.concurrent.Callable;
import nvidb.cli.context.CliContext;
import nvidb.cli.context.ContextHolder;
import nvidb.cli.output.Output;
import nvidb.cli.startup.JsonWarmUp;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every leaf command shares: the context of this command line, and its output. */
public abstract class BaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    protected CliContext ctx() {
        return ((ContextHolder) spec.root().userObject()).context();
    }

    protected Output out() {
        return ctx().output();
    }

    protected boolean json() {
        return out().json();
    }

    protected static Instant now() {
        return Instant.now();
    }

    /**
     * Whether this command line reads JSON the store keeps (a result, event data, a sweep's spec):
     * its reading is then set up on a side thread while the queue opens ({@link JsonWarmUp}).
     */
    protected boolean readsStoredJson() {
        return false;
    }

    @Override
    public final Integer call() {
        // With --json, the serialisers of the records the build found this command prints are built
        // on the same side thread (the build-time model's list: nvidb.cli.startup).
        JsonWarmUp.start(getClass(), readsStoredJson(), json());
        return execute();
    }

    /** The exit code of an operation on several things: 0, or its most serious outcome's, said on stderr too. */
    protected int report(nvidb.core.app.Acted<?> acted) {
        return report(acted.code(), acted.message());
    }

    protected int report(nvidb.core.app.Verdicts.Verdict verdict) {
        return report(verdict.code(), verdict.message());
    }

    private int report(nvidb.core.api.ErrorCode code, String message) {
        if (code == null) {
            return 0;
        }
        if (!json()) {
            out().note("error: " + message);
        }
        return code.exitCode();
    }

    /** Does the work and returns the exit code. */
    protected abstract int execute();
}
