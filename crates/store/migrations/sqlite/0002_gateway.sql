-- Gateway Authtokens: shown once, stored as SHA-256.
CREATE TABLE gateway_authtokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    label TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_hint TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX gateway_authtokens_tenant ON gateway_authtokens (tenant_id);

-- What a tenant may use through the gateway (the spec's "value-added items", error 105).
CREATE TABLE gateway_settings (
    tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
    file_types TEXT NOT NULL,
    signature_types TEXT NOT NULL,
    legacy_profile BOOLEAN NOT NULL,
    updated_at INTEGER NOT NULL
);

-- One row per gateway request. (tenant_id, reference_number) is unique forever: the database
-- decides which of several concurrent requests with one reference wins (error 108).
CREATE TABLE gateway_transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_number TEXT NOT NULL UNIQUE,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    authtoken_id INTEGER NOT NULL REFERENCES gateway_authtokens(id),
    reference_number TEXT NOT NULL,
    file_type TEXT NOT NULL,
    profile INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('initiated', 'completed', 'failed', 'cancelled', 'expired')),
    -- SHA-256 of the secret in the signer's link; the link is the only way to the signer page.
    link_hash TEXT NOT NULL,
    session_key BLOB NOT NULL,
    request_json TEXT NOT NULL,
    payload_blob TEXT,
    store_result BOOLEAN NOT NULL,
    success_url TEXT NOT NULL,
    failure_url TEXT NOT NULL,
    cancel_url TEXT NOT NULL,
    error_message TEXT,
    result_blob TEXT,
    result_expires_at INTEGER,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX gateway_transactions_reference ON gateway_transactions (tenant_id, reference_number);
CREATE INDEX gateway_transactions_expiry ON gateway_transactions (state, expires_at);
