-- Retention, legal holds and erasure (issue 34, item 2; signet_domain::retention).
-- An organisation's periods (template_id 0) and each template's, which override them field by
-- field; NULL keeps until erased on request.
CREATE TABLE retention_policies (
    tenant_id BIGINT NOT NULL,
    template_id BIGINT NOT NULL DEFAULT 0,
    completed_days BIGINT,
    declined_days BIGINT,
    expired_days BIGINT,
    gateway_days BIGINT,
    updated_by TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, template_id)
);

-- When a workflow reached its end (completed, declined, expired): what its period counts from.
-- A legal hold (reason, who, when) keeps it whatever its period says. erased_at: its documents,
-- attachments, events and personal fields are gone; a tombstone in the organisation's audit
-- chain says what they were.
ALTER TABLE workflows ADD COLUMN ended_at BIGINT;
ALTER TABLE workflows ADD COLUMN hold_reason TEXT;
ALTER TABLE workflows ADD COLUMN hold_by TEXT;
ALTER TABLE workflows ADD COLUMN hold_at BIGINT;
ALTER TABLE workflows ADD COLUMN erased_at BIGINT;
UPDATE workflows SET ended_at = COALESCE(completed_at, updated_at) WHERE state IN ('completed', 'declined', 'expired');
CREATE INDEX workflows_ended ON workflows (tenant_id, state, ended_at);
CREATE INDEX workflows_held ON workflows (tenant_id, hold_at);

ALTER TABLE gateway_transactions ADD COLUMN erased_at BIGINT;
CREATE INDEX gateway_transactions_finished ON gateway_transactions (tenant_id, state, updated_at);
