package nvidb.cli;

import nvidb.cli.context.CliContext;
import nvidb.cli.context.ShutdownGuard;
import nvidb.cli.output.Output;

/** The {@code nvidb} program. The only place that ends the process. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        CliContext context = new CliContext(System.getenv(), Output.system());
        ShutdownGuard guard = ShutdownGuard.install(context);
        int code = Nvidb.run(args, context);
        guard.finished();
        System.exit(code);
    }
}
