-- Alert delivery (issue 12): per alert and per sink in alert_deliveries (created by V001).

-- A sink that cannot run on this machine (no notify-send on a headless host) settles an alert
-- without delivering it: recorded here, never retried, never an error.
ALTER TABLE alert_deliveries ADD COLUMN skipped_at TEXT;

-- Alerts raised before this schema were never delivered, and never will be: without this a new
-- webhook or command would receive the whole history at its first pass.
UPDATE alerts SET notified_at = ts WHERE notified_at IS NULL;

-- Every pass looks for alerts whose delivery is not settled; settled ones leave this index.
CREATE INDEX idx_alerts_unnotified ON alerts(id) WHERE notified_at IS NULL;
