-- Erasure reaches what names a workflow's people outside the workflow (issue 34, item 2):
-- the webhook deliveries made for it (their payload names the workflow and its reference) are
-- found by the workflow they are about, and a bulk send's rows by the workflow each created.
ALTER TABLE webhook_deliveries ADD COLUMN workflow_id INTEGER;
UPDATE webhook_deliveries SET workflow_id = CAST(json_extract(payload, '$.data.workflowId') AS INTEGER)
    WHERE json_valid(payload) AND json_type(payload, '$.data.workflowId') = 'integer';
CREATE INDEX webhook_deliveries_workflow ON webhook_deliveries (tenant_id, workflow_id) WHERE workflow_id IS NOT NULL;
CREATE INDEX bulk_job_items_result ON bulk_job_items (result_ref, job_id) WHERE result_ref IS NOT NULL;
