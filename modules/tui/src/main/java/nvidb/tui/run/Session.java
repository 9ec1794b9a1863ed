package nvidb.tui.run;

import nvidb.core.api.Caller;
import nvidb.core.api.QueueAccess;
import nvidb.core.app.Application;

/**
 * A worker's door into the queue: the application layer over an access of its own, and who asks
 * through it (this process's OS account and submitter label, front end {@code tui}).
 */
record Session(Application app, Caller caller) {
    static Session over(QueueAccess access) {
        return new Session(new Application(access), Caller.of(Caller.FrontEnd.TUI, access.submitter()));
    }
}
