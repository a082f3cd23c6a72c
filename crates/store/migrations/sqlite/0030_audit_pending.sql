-- Audit events written but not yet linked into their tenant's chain (audit_anchor.rs). Only
-- PostgreSQL writes here: its writers no longer link under the tenant row's lock, and the
-- events are linked in batches after commit. SQLite links at once and leaves this empty.
CREATE TABLE audit_pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    ip TEXT,
    detail TEXT NOT NULL
);
CREATE INDEX audit_pending_tenant ON audit_pending (tenant_id, id);
