-- Exports (docs/exports.md). `export_jobs`: a large export written by a background job to the
-- blob store and fetched when done. The request is kept as JSON (already checked); the job is
-- claimed with a lease that its writer renews page by page, so a crashed writer's export is
-- started again once the lease runs out.
CREATE TABLE export_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id TEXT NOT NULL UNIQUE,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    dataset TEXT NOT NULL CHECK (dataset IN ('workflows', 'signatories', 'audit-events', 'users')),
    format TEXT NOT NULL CHECK (format IN ('csv', 'xlsx', 'jsonl')),
    request TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    row_count INTEGER NOT NULL DEFAULT 0,
    size_bytes INTEGER,
    blob_key TEXT,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    locked_until INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER
);
CREATE INDEX export_jobs_tenant ON export_jobs (tenant_id, id);

-- Exports read signatories page by page in id order within a tenant.
CREATE INDEX signatories_tenant ON signatories (tenant_id, id);
