-- E-stamp certificates belong to the tenant Signet ordered them for (docs/estamp-provider.md,
-- "Whose certificates"; issue 30 item 5).
--
-- `stamp_provider_issues`: every issue Signet ordered at the stamp provider, recorded with the
-- tenant it was ordered for when the provider answered: the provider's reference (unique
-- installation-wide: an issue is one tenant's), the loan record's txnID and loan number. A
-- reference is fetched from the provider only for the tenant an issue it names was recorded
-- for. Issues on record before this migration (certificates of the provider already stored)
-- are bound to the tenant that stored them first.
CREATE TABLE stamp_provider_issues (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    provider_ref TEXT NOT NULL,
    txn_id TEXT,
    loan_no TEXT,
    issued_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX stamp_provider_issues_reference ON stamp_provider_issues (lower(provider_ref));
CREATE INDEX stamp_provider_issues_txn ON stamp_provider_issues (tenant_id, lower(txn_id));
CREATE INDEX stamp_provider_issues_loan ON stamp_provider_issues (tenant_id, lower(loan_no));

INSERT INTO stamp_provider_issues (tenant_id, provider_ref, txn_id, loan_no, issued_at)
SELECT s.tenant_id, s.provider_ref, NULL, NULL, s.loaded_at FROM stamps s
WHERE s.source = 'provider' AND s.provider_ref IS NOT NULL AND s.id = (
    SELECT MIN(o.id) FROM stamps o WHERE o.source = 'provider' AND lower(o.provider_ref) = lower(s.provider_ref)
);

-- Certificate numbers are unique installation-wide (a certificate is one holder's, and stamps
-- one document), not only per tenant. An installation that already holds one number in
-- several tenants keeps the row recorded first as the number's; every later copy is marked
-- `duplicate_number`, stays for the record (a copy already on a workflow stays on it: its
-- document is what was signed), and, where it was still in stock or held, is retired so that
-- it stamps nothing more. The marked rows are for the operator to review:
--   SELECT id, tenant_id, reference_no, state, workflow_id FROM stamps WHERE duplicate_number;
ALTER TABLE stamps ADD COLUMN duplicate_number BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE stamps SET duplicate_number = TRUE
WHERE id > (SELECT MIN(o.id) FROM stamps o WHERE lower(o.reference_no) = lower(stamps.reference_no));
UPDATE stamps SET state = 'retired', ended_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000,
    reservation = NULL, reserved_until = NULL
WHERE duplicate_number AND state IN ('available', 'reserved');
CREATE UNIQUE INDEX stamps_reference ON stamps (lower(reference_no)) WHERE NOT duplicate_number;
