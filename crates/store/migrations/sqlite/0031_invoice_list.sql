-- The tenant's issued documents are listed newest first (GET /api/v1/stamps/invoices).
CREATE INDEX invoices_by_issue ON invoices (tenant_id, issued_at, id);
