-- Automated-signing certificate profiles: a tenant's uploaded PKCS#12, kept as its key and
-- chain encrypted (AES-256-GCM) under a key derived from the platform's sealing key. A
-- workflow names one (`hsmCertificateId`); the signatory with the profile's e-mail address
-- then signs server-side when their turn comes.
CREATE TABLE signing_profiles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    not_after INTEGER NOT NULL,
    material BLOB NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX signing_profiles_tenant ON signing_profiles (tenant_id);
