-- Schema 13: a lab of several people (issue 34). `wait_reason` is why the last pass left a pending
-- job waiting when a rule of the queue held it (a user's quota, fair share, its sweep's
-- --max-parallel), written by the pass only when it changes; null when none did. The index serves
-- fair share, which sums each user's GPU time over the recent past on every pass.
ALTER TABLE jobs ADD COLUMN wait_reason TEXT;
CREATE INDEX idx_jobs_finished ON jobs(finished_at) WHERE started_at IS NOT NULL;
