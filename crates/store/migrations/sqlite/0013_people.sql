-- People of a tenant (issue 13): a user principal carries its profile, role and status.
-- `disabled` stays the sign-in gate the token check reads; it is true whenever `status` is
-- not active. National ids (Aadhaar) are not kept: only their last four digits (shown masked)
-- and a keyed digest (to find a user by the number).
ALTER TABLE principals ADD COLUMN name TEXT;
ALTER TABLE principals ADD COLUMN user_type TEXT NOT NULL DEFAULT 'internal' CHECK (user_type IN ('internal', 'external'));
ALTER TABLE principals ADD COLUMN role TEXT NOT NULL DEFAULT 'administrator' CHECK (role IN ('administrator', 'sender', 'signer', 'auditor'));
ALTER TABLE principals ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'disabled', 'pending', 'rejected', 'deleted'));
ALTER TABLE principals ADD COLUMN status_reason TEXT;
ALTER TABLE principals ADD COLUMN alternative_email TEXT;
ALTER TABLE principals ADD COLUMN contact_number TEXT;
ALTER TABLE principals ADD COLUMN organization TEXT;
ALTER TABLE principals ADD COLUMN department_id INTEGER REFERENCES departments(id);
ALTER TABLE principals ADD COLUMN geo_profile_id INTEGER;
ALTER TABLE principals ADD COLUMN designation TEXT;
ALTER TABLE principals ADD COLUMN signature_type TEXT;
ALTER TABLE principals ADD COLUMN profile_ref TEXT;
ALTER TABLE principals ADD COLUMN signature_option INTEGER;
ALTER TABLE principals ADD COLUMN login_mode TEXT NOT NULL DEFAULT 'password' CHECK (login_mode IN ('password', 'email_otp', 'sso'));
ALTER TABLE principals ADD COLUMN national_id_last4 TEXT;
ALTER TABLE principals ADD COLUMN national_id_digest TEXT;
ALTER TABLE principals ADD COLUMN pan_number TEXT;
ALTER TABLE principals ADD COLUMN time_zone TEXT;
ALTER TABLE principals ADD COLUMN dob INTEGER;
ALTER TABLE principals ADD COLUMN created_by TEXT;
ALTER TABLE principals ADD COLUMN updated_at INTEGER;
CREATE INDEX principals_tenant_users ON principals (tenant_id, kind, status);
CREATE INDEX principals_national_id ON principals (tenant_id, national_id_digest);

-- Single-use links that let a user set a password (AdminPasswordSettingsEmailRequest): the
-- link carries a random token; only its SHA-256 is kept.
CREATE TABLE password_links (
    token_hash TEXT NOT NULL PRIMARY KEY,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    principal_id INTEGER NOT NULL REFERENCES principals(id),
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX password_links_principal ON password_links (principal_id);
