-- One-time sign-in codes sent by e-mail (login mode email_otp): one live code per user, kept
-- as its SHA-256 only; a code works once, before it expires, within a few attempts.
CREATE TABLE login_codes (
    principal_id BIGINT NOT NULL PRIMARY KEY REFERENCES principals(id),
    tenant_id BIGINT NOT NULL REFERENCES tenants(id),
    code_hash TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
