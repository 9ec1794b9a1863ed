package nvidb.cli;

import nvidb.cli.output.Output;

/** The {@code nvidb} program. The only place that ends the process. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code = Nvidb.run(args, System.getenv(), Output.system());
        System.exit(code);
    }
}
