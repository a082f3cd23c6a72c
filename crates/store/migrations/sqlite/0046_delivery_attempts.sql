-- Every attempt at a webhook delivery (issue 34): when it was made, what the endpoint answered
-- (an HTTP status, or the error when it could not be reached) and how long it took, so that an
-- integrator sees the whole history of a retried delivery, not only its last answer.
CREATE TABLE webhook_delivery_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id),
    attempted_at INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (tenant_id, delivery_id, id);

-- The circuit breaker of each endpoint: failed attempts since its last success, and when it
-- was paused (NULL while it is delivering) and may next be probed. Paused is distinct from
-- `disabled`: Signet pauses, the owner resumes. `created_by` is who registered it (`user:ID`,
-- `client:ID`), the one told when it is paused.
ALTER TABLE webhook_endpoints ADD COLUMN created_by TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN failures_in_row INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN paused_at INTEGER;
ALTER TABLE webhook_endpoints ADD COLUMN probe_at INTEGER;
-- A delivery that waits for its paused endpoint (its job ended without an attempt); resuming
-- or a successful probe queues it again.
ALTER TABLE webhook_deliveries ADD COLUMN parked_at INTEGER;
