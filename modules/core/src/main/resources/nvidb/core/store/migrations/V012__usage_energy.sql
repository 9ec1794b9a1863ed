-- Schema 12: accounting (issue 34, nvidb queue usage). Each pass that looks at a running job meters
-- the time since the node's previous look (at most 10 minutes, UsageWatch.MAX_LOOK_GAP): energy_j,
-- the joules its GPUs drew (each GPU's power.draw split evenly among the queue jobs on it; NULL
-- while no look saw a power figure), and idle_gpu_s, the GPU-seconds its GPUs spent at or under
-- queue.idle_util (measured where util_samples > 0). docs/usage.md has the rule.
ALTER TABLE jobs ADD COLUMN energy_j REAL;
ALTER TABLE jobs ADD COLUMN idle_gpu_s REAL NOT NULL DEFAULT 0;
-- The history keeps each GPU's power draw beside its other figures: a sum of watts over the
-- power_n probes of the bucket that reported one (the mean is power_w / power_n).
ALTER TABLE gpu_samples ADD COLUMN power_w REAL NOT NULL DEFAULT 0;
ALTER TABLE gpu_samples ADD COLUMN power_n INTEGER NOT NULL DEFAULT 0;
