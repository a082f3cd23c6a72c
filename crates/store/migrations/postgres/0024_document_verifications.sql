-- A document's public verification page (the address in the QR code drawn on it): found by the
-- hash of the random token in that address; it shows the verdicts on the document's current
-- (signed) version, never the document itself.
CREATE TABLE document_verifications (
    token_hash TEXT NOT NULL PRIMARY KEY,
    tenant_id BIGINT NOT NULL REFERENCES tenants(id),
    document_id BIGINT NOT NULL REFERENCES documents(id),
    created_at BIGINT NOT NULL
);
CREATE INDEX document_verifications_document ON document_verifications (document_id);
