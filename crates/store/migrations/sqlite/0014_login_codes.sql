-- One-time sign-in codes sent by e-mail (login mode email_otp): one live code per user, kept
-- as its SHA-256 only; a code works once, before it expires, within a few attempts.
CREATE TABLE login_codes (
    principal_id INTEGER NOT NULL PRIMARY KEY REFERENCES principals(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    code_hash TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
