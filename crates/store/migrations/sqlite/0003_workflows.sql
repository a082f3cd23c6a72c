-- Workflows through the JSON API: templates, documents, signatories in order, the per-workflow
-- event chain, comments, attachments, summaries and webhooks.

CREATE TABLE templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    description TEXT,
    -- JSON: documents, fields per signatory role, roles, settings.
    definition TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX templates_tenant ON templates (tenant_id);

CREATE TABLE workflows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    template_id INTEGER REFERENCES templates(id),
    name TEXT NOT NULL,
    reference_no TEXT,
    workflow_type INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed', 'declined', 'expired', 'inactive', 'deleted')),
    state_reason TEXT,
    -- The signing order whose signatories may sign now.
    current_order INTEGER NOT NULL,
    -- JSON: sendMail, notifyCustomer, redirectURL, reason, location, ...
    settings TEXT NOT NULL,
    reminder_every_days INTEGER,
    expires_at INTEGER,
    linked_ids TEXT NOT NULL,
    category_id INTEGER,
    created_by TEXT NOT NULL,
    -- The head of this workflow's own event chain (see workflow_events).
    event_seq INTEGER NOT NULL DEFAULT 0,
    event_head TEXT NOT NULL,
    certificate_blob TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER
);
CREATE INDEX workflows_tenant ON workflows (tenant_id, id);
CREATE INDEX workflows_expiry ON workflows (state, expires_at);

CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    workflow_id INTEGER REFERENCES workflows(id),
    position INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    category_id INTEGER,
    reference_no TEXT,
    state TEXT NOT NULL CHECK (state IN ('active', 'inactive', 'deleted')),
    state_reason TEXT,
    original_blob TEXT NOT NULL,
    original_sha256 TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    page_count INTEGER NOT NULL,
    -- The newest version (each signature is an incremental update of the previous one);
    -- version guards concurrent signers of one parallel group.
    current_blob TEXT NOT NULL,
    current_sha256 TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX documents_tenant ON documents (tenant_id, id);
CREATE INDEX documents_workflow ON documents (workflow_id);

CREATE TABLE signatories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    workflow_id INTEGER NOT NULL REFERENCES workflows(id),
    subscriber_id INTEGER NOT NULL,
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    signing_order INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'notified', 'viewed', 'signed', 'declined', 'delegated')),
    -- The signer's link is an HMAC of (id, link_version) under a platform key; bumping the
    -- version revokes every earlier link.
    link_version INTEGER NOT NULL DEFAULT 1,
    link_expires_at INTEGER NOT NULL,
    -- JSON: where this signatory's signature goes (coordinates, searchText/anchor, template fields).
    placement TEXT NOT NULL,
    delegated_from INTEGER REFERENCES signatories(id),
    reason TEXT,
    method TEXT,
    notified_at INTEGER,
    viewed_at INTEGER,
    signed_at INTEGER,
    last_reminded_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX signatories_workflow ON signatories (workflow_id, signing_order);

-- Each workflow's events, hash-chained (the same entry hash as the tenant audit log, keyed by
-- the workflow id), so the chain can be exported and checked on its own.
CREATE TABLE workflow_events (
    workflow_id INTEGER NOT NULL REFERENCES workflows(id),
    seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    ip TEXT,
    detail TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (workflow_id, seq)
);

CREATE TABLE document_comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    author TEXT NOT NULL,
    comment TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX document_comments_document ON document_comments (document_id);

CREATE TABLE workflow_attachments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    workflow_id INTEGER NOT NULL REFERENCES workflows(id),
    signatory_id INTEGER REFERENCES signatories(id),
    -- 'initiator': sent with the workflow; 'requested': asked of signers; 'signer': uploaded by one.
    kind TEXT NOT NULL CHECK (kind IN ('initiator', 'requested', 'signer')),
    name TEXT NOT NULL,
    description TEXT,
    blob_key TEXT,
    sha256 TEXT,
    size_bytes INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX workflow_attachments_workflow ON workflow_attachments (workflow_id);

CREATE TABLE document_summaries (
    document_id INTEGER NOT NULL REFERENCES documents(id),
    sha256 TEXT NOT NULL,
    summary TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (document_id, sha256)
);

CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    url TEXT NOT NULL,
    description TEXT,
    -- Comma-separated event types, or '*'.
    event_types TEXT NOT NULL,
    -- The signing secret (whsec_...): kept, because every delivery is signed with it.
    secret TEXT NOT NULL,
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id);

CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id),
    -- The Standard Webhooks message id (webhook-id); the same on every retry.
    message_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX webhook_deliveries_message ON webhook_deliveries (endpoint_id, message_id);
CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (tenant_id, id);
