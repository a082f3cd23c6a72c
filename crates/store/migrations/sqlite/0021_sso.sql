-- Single sign-on through the tenant's own OpenID Connect provider. A provider serves the
-- e-mail domains it lists (each domain claimed by one provider of the installation); its
-- client secret is sealed by the services. The endpoints are those its discovery document
-- gave when it was saved.
CREATE TABLE sso_providers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    display_name TEXT NOT NULL,
    issuer TEXT NOT NULL,
    client_id TEXT NOT NULL,
    client_secret BLOB,
    authorization_endpoint TEXT NOT NULL,
    token_endpoint TEXT NOT NULL,
    userinfo_endpoint TEXT,
    jwks_uri TEXT NOT NULL,
    redirect_uris TEXT NOT NULL,
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER
);
CREATE UNIQUE INDEX sso_providers_name ON sso_providers (tenant_id, name);
CREATE TABLE sso_domains (
    domain TEXT NOT NULL PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id)
);
-- A sign-in under way, from the redirect to the provider to its answer: kept as the hash of
-- its state; the nonce and PKCE verifier are derived from the state, so nothing to steal.
CREATE TABLE sso_logins (
    state_hash TEXT NOT NULL PRIMARY KEY,
    provider_id INTEGER NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
    return_to TEXT,
    client_state TEXT,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
-- Accounts linked to a provider's subject (first by verified e-mail, then by subject).
CREATE TABLE sso_identities (
    provider_id INTEGER NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
    subject TEXT NOT NULL,
    principal_id INTEGER NOT NULL REFERENCES principals(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    email TEXT,
    linked_at INTEGER NOT NULL,
    last_login_at INTEGER,
    PRIMARY KEY (provider_id, subject)
);
CREATE INDEX sso_identities_principal ON sso_identities (principal_id);
-- The one-time code a finished sign-in hands to the application, exchanged for tokens
-- (grant_type sso_code) once, within minutes; kept as its hash.
CREATE TABLE sso_codes (
    code_hash TEXT NOT NULL PRIMARY KEY,
    principal_id INTEGER NOT NULL REFERENCES principals(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
-- Trial sign-ups through an installation's provider (`isSSO`): the provider proves the address
-- instead of an e-mailed link. A sign-up's sign-in under way is kept as the hash of its state.
ALTER TABLE trial_signups ADD COLUMN sso_provider TEXT;
CREATE TABLE sso_signup_logins (
    state_hash TEXT NOT NULL PRIMARY KEY,
    signup_hash TEXT NOT NULL,
    provider TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
