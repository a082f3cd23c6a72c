-- A chain entry's client address is personal data (issue 34, item 1): the hash now covers a
-- commitment to it (`ipc1:` + SHA-256 of a nonce and the address, in `ip`), and the address
-- with its nonce is kept here, encrypted like the other personal fields. Entries written
-- before hold the address in `ip`; sealing them moves it here and leaves `ip` empty.
ALTER TABLE audit_log ADD COLUMN ip_sealed TEXT;
ALTER TABLE workflow_events ADD COLUMN ip_sealed TEXT;
ALTER TABLE audit_pending ADD COLUMN ip_sealed TEXT;
-- The entries whose address is still in clear, for the pass that seals them
-- (`Store::seal_fields_in_clear`); empty once it has run, as new entries hold commitments.
-- (Parenthesised as PostgreSQL writes the predicate back, so the two trees compare equal.)
CREATE INDEX audit_log_ip_in_clear ON audit_log (tenant_id, seq) WHERE (ip IS NOT NULL) AND (ip NOT LIKE 'ipc1:%');
CREATE INDEX workflow_events_ip_in_clear ON workflow_events (workflow_id, seq)
    WHERE (ip IS NOT NULL) AND (ip NOT LIKE 'ipc1:%');
