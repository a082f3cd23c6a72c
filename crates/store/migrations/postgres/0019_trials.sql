-- Self-service free trials (FreeTrialRequest): a sign-up waits, as the hash of its e-mailed
-- token, until the address is verified; then a tenant is made with the trial's limits (an end
-- date and at most so many workflows and users; none for other tenants).
CREATE TABLE trial_signups (
    token_hash TEXT NOT NULL PRIMARY KEY,
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    source TEXT,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
ALTER TABLE tenants ADD COLUMN trial_ends_at BIGINT;
ALTER TABLE tenants ADD COLUMN max_workflows BIGINT;
ALTER TABLE tenants ADD COLUMN max_users BIGINT;
