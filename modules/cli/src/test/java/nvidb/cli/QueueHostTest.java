package nvidb.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import nvidb.testkit.SshdFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test with a fresh {@link QueueHostFixture} each: a queue host behind a real sshd, and its client. */
abstract class QueueHostTest {
    @TempDir
    Path tmp;
    QueueHostFixture q;

    @BeforeEach
    void startQueueHost() throws Exception {
        assumeTrue(SshdFixture.available(), SshdFixture.MISSING);
        q = new QueueHostFixture(tmp);
    }

    @AfterEach
    void stopQueueHost() {
        if (q != null) {
            q.close();
        }
    }
}
