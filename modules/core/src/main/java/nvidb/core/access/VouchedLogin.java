package nvidb.core.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import nvidb.core.api.Caller;
import nvidb.core.api.NvidbException;
import nvidb.core.config.NvidbPaths;

/**
 * When a user vouched for by the shared account's login entry ({@link Caller#vouch}) is honoured:
 * only on a queue whose files the process's own OS account owns, the database (or, before it
 * exists, its folder), the nvidb home and the configuration files. The shared account's queue is
 * its own, so its keys act there as their users; an account that runs {@code queue users login}
 * by hand against a queue someone else owns (a group-shared one, say) poses as nobody, and no
 * client can point a login at configuration it wrote (a {@code queue.yml} naming itself an admin).
 * The one place this rule lives.
 */
final class VouchedLogin {
    private VouchedLogin() {
    }

    /** {@code paths} as they are, or a refusal when a vouched user would act on files not this account's. */
    static NvidbPaths checked(NvidbPaths paths) {
        String vouched = Caller.vouched();
        if (vouched == null) {
            return paths;
        }
        String account = Caller.processAccount();
        Path database = Files.exists(paths.database(), LinkOption.NOFOLLOW_LINKS) ? paths.database()
                : paths.database().getParent();
        for (Path file : new Path[] {database, paths.home(), paths.configFile(), paths.queueFile()}) {
            if (file == null || !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String owner = owner(file);
            if (!account.equals(owner)) {
                throw NvidbException.forbidden("nvidb queue users login acts for " + vouched + " only on a queue"
                        + " the account " + account + " owns, and " + file + " is " + owner + "'s: run it as the"
                        + " queue's shared account (its authorized_keys forced command), against that account's queue");
            }
        }
        return paths;
    }

    private static String owner(Path file) {
        try {
            return Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
        } catch (IOException | UnsupportedOperationException e) {
            return "(unknown owner: " + e.getMessage() + ")";
        }
    }
}
