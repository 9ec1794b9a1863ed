package nvidb.plugins.alerts;

import java.nio.file.Path;

/** A second process appending to the same log, for {@link LogSinkTest}. Args: file, count, writer. */
public final class LogAppenderMain {

    private LogAppenderMain() {
    }

    public static void main(String[] args) throws Exception {
        LogSink sink = new LogSink(Path.of(args[0]));
        int count = Integer.parseInt(args[1]);
        for (int i = 0; i < count; i++) {
            sink.deliver(Alerts.withJson(i, LogSinkTest.lineFor(args[2], i)));
        }
    }
}
