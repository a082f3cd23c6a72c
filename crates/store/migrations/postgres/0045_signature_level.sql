-- The ETSI baseline level a completed gateway transaction's signature reached (issue 33):
-- "PAdES-B-LT", "CAdES-B-T", "XAdES-B-B", ... as the status API tells the integrator; below
-- B-LT when no TSA is configured or a CA or TSA did not answer. NULL for transactions that did
-- not complete, or completed before this column existed.
ALTER TABLE gateway_transactions ADD COLUMN signature_level TEXT;
