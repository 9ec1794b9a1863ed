-- Schema 12 is the `usage` branch's (issue 34: the power column). This placeholder keeps the
-- numbers contiguous on the `doors` branch alone; at merge it is replaced by that migration.
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
