-- Schema 8: the queue host's boot clock beside the wall clock (issue 24, clock jumps). The wall
-- clock can jump an hour either way (NTP after a suspend, a person setting it): a --timeout or a
-- lease counted on it alone would then end every running job, or free a lease its holder still
-- renews, at once. The boot clock (/proc/uptime, CLOCK_BOOTTIME) only moves forward and every
-- process of the host reads the same one; it compares while the host has not rebooted, which the
-- boot id says. NULL where the host has none: then the wall clock counts, as before.
-- A running job's start on it (TimeoutPass counts --timeout from there).
ALTER TABLE jobs ADD COLUMN started_boot_id TEXT;
ALTER TABLE jobs ADD COLUMN started_uptime_ms INTEGER;
-- A lease's expiry on it (LeaseRepository: a holder on this host stands until then).
ALTER TABLE locks ADD COLUMN expires_boot_id TEXT;
ALTER TABLE locks ADD COLUMN expires_uptime_ms INTEGER;
