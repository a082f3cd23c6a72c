-- Envelope encryption at rest (issue 34, item 1). One data key per owner (an organisation, or
-- the platform as tenant 0) and year, so that a year's key can retire; stored only wrapped
-- (AES-256-GCM) by the master key named by master_id, which never enters the database.
-- Rotating the master key re-wraps these rows and leaves every document as it is. A
-- destroyed key (its organisation deleted) keeps its row, with no key material left.
CREATE TABLE data_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id BIGINT NOT NULL,
    year INTEGER NOT NULL,
    wrapped BLOB,
    master_id TEXT,
    created_at BIGINT NOT NULL,
    destroyed_at BIGINT
);
CREATE UNIQUE INDEX data_keys_owner_year ON data_keys (tenant_id, year);
CREATE INDEX data_keys_master ON data_keys (master_id);

-- When every stored object was last found encrypted: from then on an object in clear is
-- refused rather than read (one row, or none while objects in clear may remain).
CREATE TABLE blob_encryption (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    all_sealed_at BIGINT NOT NULL
);
