-- Bulk work (docs/bulk.md). `bulk_jobs`: one background job of many items (signing a lot, a
-- bulk send), its parameters and outcome; `bulk_job_items`: each item, claimed with a lease so
-- that an item runs once across instances and a crashed worker's item is taken up again.
-- Progress is counted from the items, never kept in counters that could drift.
-- `lots`/`lot_workflows`: a set of workflows whose documents one signer signs at once.
CREATE TABLE bulk_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id TEXT NOT NULL UNIQUE,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    kind TEXT NOT NULL CHECK (kind IN ('lot_sign', 'bulk_send')),
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'completed_with_errors', 'cancelled')),
    created_by TEXT NOT NULL,
    subscriber_id INTEGER NOT NULL,
    parent_id INTEGER NOT NULL,
    menu_id INTEGER NOT NULL DEFAULT 0,
    input TEXT NOT NULL,
    cancel_requested BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER
);
CREATE INDEX bulk_jobs_tenant ON bulk_jobs (tenant_id, id);

CREATE TABLE bulk_job_items (
    job_id INTEGER NOT NULL REFERENCES bulk_jobs(id),
    item_no INTEGER NOT NULL,
    input TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'succeeded', 'failed', 'skipped')),
    locked_until INTEGER,
    result_ref TEXT,
    detail TEXT,
    finished_at INTEGER,
    PRIMARY KEY (job_id, item_no)
);
CREATE INDEX bulk_job_items_state ON bulk_job_items (job_id, state);

CREATE TABLE lots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    signer_email TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    job_id INTEGER REFERENCES bulk_jobs(id)
);
CREATE INDEX lots_tenant ON lots (tenant_id, id);

CREATE TABLE lot_workflows (
    lot_id INTEGER NOT NULL REFERENCES lots(id),
    position INTEGER NOT NULL,
    workflow_id INTEGER NOT NULL REFERENCES workflows(id),
    PRIMARY KEY (lot_id, position)
);
