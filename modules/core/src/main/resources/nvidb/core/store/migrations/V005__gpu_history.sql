-- Schema 5: the history behind the web pages' plots (nvidb queue web, nvidb queue history). Every
-- pass folds each GPU's probe into three buckets at once, one per tier, so nothing ever has to
-- be re-aggregated: tier 0 holds 1-minute buckets for a day, tier 1 10-minute buckets for a week,
-- tier 2 hourly buckets for 30 days (HistoryRepository.TIERS). Older buckets are deleted as each
-- pass writes. Steady state: 1,440 + 1,008 + 720 = 3,168 rows a GPU, whatever the pass interval.
-- Values are sums over the n probes folded in, so a bucket's mean is sum / n.
-- The key leads with (tier, ts): the pruning deletes a range, and a queue-wide plot reads one.
CREATE TABLE gpu_samples (
    tier INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    node TEXT NOT NULL,
    gpu_index INTEGER NOT NULL,
    n INTEGER NOT NULL,
    total_mb INTEGER NOT NULL,
    external_mb INTEGER NOT NULL,
    reserved_mb INTEGER NOT NULL,
    used_mb INTEGER NOT NULL,
    util INTEGER NOT NULL,
    util_n INTEGER NOT NULL,
    temp_max INTEGER,
    jobs INTEGER NOT NULL,
    PRIMARY KEY (tier, ts, node, gpu_index)
) WITHOUT ROWID;

-- The queue as a whole, one row a bucket: jobs waiting and running, and the longest wait.
CREATE TABLE queue_samples (
    tier INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    n INTEGER NOT NULL,
    pending INTEGER NOT NULL,
    running INTEGER NOT NULL,
    oldest_wait_s INTEGER NOT NULL,
    PRIMARY KEY (tier, ts)
) WITHOUT ROWID;
