package nvidb.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import nvidb.core.api.Backups;
import nvidb.core.api.Times;

/** A backup as every document that reports one shows it: {@code queue backup}, restore's {@code previous}, a daemon pass. */
public final class BackupViews {
    private BackupViews() {
    }

    /**
     * The reference's BackupInfo {@code {path, source, created_at, bytes, verified, pruned}}, with
     * {@code took_ms} and {@code quick_check} beside. {@code verified} is always true: a copy that
     * fails {@code quick_check} is never published.
     */
    public static ObjectNode backup(Backups.Backup b) {
        ObjectNode o = Output.object();
        o.put("path", b.path().toString());
        o.put("source", b.source().toString());
        o.put("created_at", Times.iso(b.createdAt()));
        o.put("bytes", b.bytes());
        o.put("verified", "ok".equals(b.quickCheck()));
        ArrayNode pruned = o.putArray("pruned");
        b.removed().forEach(p -> pruned.add(p.toString()));
        o.put("took_ms", b.tookMs());
        o.put("quick_check", b.quickCheck());
        return o;
    }
}
