CREATE TABLE tenants (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    audit_seq INTEGER NOT NULL DEFAULT 0,
    audit_head TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- Users (interactive logins) and API clients are both principals of a tenant.
CREATE TABLE principals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    kind TEXT NOT NULL CHECK (kind IN ('user', 'client')),
    email TEXT,
    client_id TEXT,
    secret_hash TEXT NOT NULL,
    security_stamp TEXT NOT NULL,
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX principals_email ON principals (lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX principals_client_id ON principals (client_id) WHERE client_id IS NOT NULL;

CREATE TABLE refresh_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash TEXT NOT NULL UNIQUE,
    family_id TEXT NOT NULL,
    principal_id INTEGER NOT NULL REFERENCES principals(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    issued_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    revoked_at INTEGER
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_principal ON refresh_tokens (principal_id);

CREATE TABLE signing_keys (
    purpose TEXT PRIMARY KEY,
    kid TEXT NOT NULL,
    private_der BLOB NOT NULL,
    public_raw BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE auth_failures (
    account_key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    failures INTEGER NOT NULL
);

CREATE TABLE departments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX departments_tenant_name ON departments (tenant_id, lower(name));

CREATE TABLE audit_log (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    ip TEXT,
    detail TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (tenant_id, seq)
);

CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    dedupe_key TEXT UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('ready', 'running', 'done', 'failed')),
    run_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    locked_by TEXT,
    locked_until INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX jobs_ready ON jobs (state, run_at);
