-- Invoices (docs/stamps.md, "Invoices"). `billing_profiles`: the tenant as the recipient of the
-- platform operator's invoices (its state is the place of supply). `invoice_counters`: the last
-- serial of each series (tenant, kind, Indian financial year), raised in the transaction that
-- inserts the document, so numbers are consecutive without gaps. `invoices`: the documents
-- issued for a workflow, at most one of each kind; the PDF is in the blob store as issued and
-- is never made again.
CREATE TABLE billing_profiles (
    tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
    legal_name TEXT NOT NULL,
    address TEXT NOT NULL,
    gstin TEXT,
    state_code TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE invoice_counters (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    kind TEXT NOT NULL CHECK (kind IN ('invoice', 'debit_note')),
    financial_year TEXT NOT NULL,
    last_serial INTEGER NOT NULL CHECK (last_serial > 0),
    PRIMARY KEY (tenant_id, kind, financial_year)
);

CREATE TABLE invoices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    workflow_id INTEGER NOT NULL REFERENCES workflows(id),
    kind TEXT NOT NULL CHECK (kind IN ('invoice', 'debit_note')),
    financial_year TEXT NOT NULL,
    serial INTEGER NOT NULL CHECK (serial > 0),
    number TEXT NOT NULL,
    taxable_paise INTEGER NOT NULL,
    tax_paise INTEGER NOT NULL,
    total_paise INTEGER NOT NULL,
    document_blob TEXT NOT NULL,
    document_sha256 TEXT NOT NULL,
    issued_by TEXT NOT NULL,
    issued_at INTEGER NOT NULL,
    UNIQUE (tenant_id, workflow_id, kind),
    UNIQUE (tenant_id, kind, financial_year, serial)
);
