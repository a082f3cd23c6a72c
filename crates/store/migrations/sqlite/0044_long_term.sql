-- Renewal of long-term signatures (issue 33, item 2). lta_expires_at: when the protection of
-- the document's newest document time-stamp runs out (the earliest notAfter of its TSA chain,
-- millis); the renewal sweep takes those within its margin, soonest first. lta_checked_at: when
-- the current version was last read for it (set with lta_expires_at, and alone for a version
-- with no document time-stamp to renew); NULL on a completed workflow's document means not yet
-- known (documents time-stamped before this column existed), which the sweep back-fills.
ALTER TABLE documents ADD COLUMN lta_expires_at INTEGER;
ALTER TABLE documents ADD COLUMN lta_checked_at INTEGER;
CREATE INDEX documents_lta_due ON documents (lta_expires_at, id) WHERE lta_expires_at IS NOT NULL;
CREATE INDEX documents_lta_unknown ON documents (id) WHERE (lta_checked_at IS NULL) AND (workflow_id IS NOT NULL);
