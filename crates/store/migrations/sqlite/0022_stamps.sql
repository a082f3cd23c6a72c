-- Stamp duty (docs/stamps.md). `stamps`: the tenant's pre-purchased e-stamp certificates, one
-- row each, from `StampBulk` loads; a certificate is taken for a workflow's document exactly
-- once (reserved while its page is made, then allocated in the workflow's own transaction).
-- `stamp_settings`: the tenant's low-stock threshold and who is mailed. `stamp_articles`: the
-- tenant's edits of the shipped articles of stamp schedules (a changed or added article, or a
-- shipped one hidden).
CREATE TABLE stamps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    state_code TEXT NOT NULL,
    denomination INTEGER NOT NULL CHECK (denomination > 0),
    reference_no TEXT NOT NULL,
    certificate_blob TEXT,
    state TEXT NOT NULL CHECK (state IN ('available', 'reserved', 'allocated', 'retired')),
    reservation TEXT,
    reserved_until INTEGER,
    workflow_id INTEGER REFERENCES workflows(id),
    page_attached BOOLEAN NOT NULL DEFAULT FALSE,
    loaded_by TEXT NOT NULL,
    loaded_at INTEGER NOT NULL,
    allocated_at INTEGER,
    ended_at INTEGER
);
CREATE UNIQUE INDEX stamps_tenant_reference ON stamps (tenant_id, lower(reference_no));
CREATE INDEX stamps_stock ON stamps (tenant_id, state_code, denomination, state);
CREATE INDEX stamps_workflow ON stamps (workflow_id);
CREATE INDEX stamps_reservation ON stamps (reservation);

CREATE TABLE stamp_settings (
    tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
    low_stock_threshold INTEGER NOT NULL,
    alert_emails TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE stamp_articles (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    state_code TEXT NOT NULL,
    article_code TEXT NOT NULL,
    description TEXT,
    duty_kind TEXT CHECK (duty_kind IN ('fixed', 'ad_valorem', 'varies')),
    fixed_duty INTEGER,
    duty_rule TEXT,
    source TEXT,
    hidden BOOLEAN NOT NULL DEFAULT FALSE,
    updated_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, state_code, article_code)
);
