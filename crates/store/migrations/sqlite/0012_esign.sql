-- Aadhaar eSign transactions: one per request Signet (the ASP) sent to an ESP. The `txn` sent
-- is `<id>-<secret>`: `id` finds the row, the secret's SHA-256 proves the answer belongs to
-- it and derives the key that seals what the answer completes (the prepared document), so a
-- copy of the database and the blob store does not reveal it. `digests` are the SHA-256 values
-- sent (hex, JSON array, InputHash order); the answer must sign exactly those. A request is
-- for a gateway transaction or for a workflow signatory: exactly one of the two is set.
CREATE TABLE esign_transactions (
    id TEXT NOT NULL PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    gateway_transaction TEXT REFERENCES gateway_transactions(transaction_number),
    signatory_id INTEGER REFERENCES signatories(id),
    digests TEXT NOT NULL,
    -- The answer carries raw RSA signatures (`rawrsa`, XML) rather than a CMS per hash.
    raw_signatures BOOLEAN NOT NULL DEFAULT FALSE,
    pending_blob TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('sent', 'signed', 'refused', 'failed')),
    outcome TEXT,
    sent_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    answered_at INTEGER,
    -- Answers refused for this transaction (forged, late, mismatched) and the last reason:
    -- they change nothing else, but are kept for the record.
    refused_answers INTEGER NOT NULL DEFAULT 0,
    last_refusal TEXT
);
CREATE INDEX esign_transactions_gateway ON esign_transactions (gateway_transaction);
CREATE INDEX esign_transactions_signatory ON esign_transactions (signatory_id);

-- How each workflow signatory signs (a delegate signs the same way).
ALTER TABLE signatories ADD COLUMN signature_mode TEXT NOT NULL DEFAULT 'electronic'
    CHECK (signature_mode IN ('electronic', 'aadhaar_esign', 'dsc_token'));
