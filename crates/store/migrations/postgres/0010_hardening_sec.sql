-- Login throttling per (account, client address) with growing delays: the account key now
-- carries the address, and each failure past the limit blocks that pair for twice as long as
-- the previous one.
ALTER TABLE auth_failures ADD COLUMN blocked_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE auth_failures ADD COLUMN delay_ms BIGINT NOT NULL DEFAULT 0;
DELETE FROM auth_failures;
