-- Deleting an organisation (issue 34, item 2: crypto-shredding). `deleted_at`: from then on
-- its users, tokens, API clients and gateway calls are refused; `purged_at`: its personal rows
-- are gone and the row stays as a tombstone (`signet tenant delete`, each step resumable).
-- The platform's own audit chain (who deleted which organisation) is the tenant row 0, made
-- by the first deletion.
ALTER TABLE tenants ADD COLUMN deleted_at BIGINT;
ALTER TABLE tenants ADD COLUMN purged_at BIGINT;
