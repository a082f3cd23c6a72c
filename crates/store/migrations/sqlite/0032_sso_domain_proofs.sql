-- Single sign-on holds the line (issue 30, items 3 and 7).
--
-- A tenant proves it owns an e-mail domain with a DNS TXT record before its providers serve it;
-- a pending proof serves nothing and blocks no one, a proven domain belongs to one tenant of the
-- installation (the partial unique index).
CREATE TABLE sso_domain_proofs (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    domain TEXT NOT NULL,
    -- The value the TXT record at _signet-challenge.<domain> must hold.
    token TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    proven_at INTEGER,
    PRIMARY KEY (tenant_id, domain)
);
CREATE UNIQUE INDEX sso_domain_proofs_proven ON sso_domain_proofs (domain) WHERE proven_at IS NOT NULL;
-- A domain is named by one provider of a tenant, and by providers of several tenants while
-- their proofs are pending (only the proven tenant's provider serves it).
CREATE TABLE sso_domains_by_tenant (
    domain TEXT NOT NULL,
    provider_id INTEGER NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    PRIMARY KEY (tenant_id, domain)
);
INSERT INTO sso_domains_by_tenant (domain, provider_id, tenant_id) SELECT domain, provider_id, tenant_id FROM sso_domains;
DROP TABLE sso_domains;
ALTER TABLE sso_domains_by_tenant RENAME TO sso_domains;
CREATE INDEX sso_domains_domain ON sso_domains (domain);
-- Who last saved a provider, and the access they had then: a first sign-in links only to an
-- account whose role they could grant. NULL (saved before this was recorded): links no one.
ALTER TABLE sso_providers ADD COLUMN saved_by TEXT;
ALTER TABLE sso_providers ADD COLUMN saved_by_role TEXT;
ALTER TABLE sso_providers ADD COLUMN saved_by_permissions TEXT;
-- Whether a single sign-on stands in for the users' second factor (default: it does not).
ALTER TABLE tenants ADD COLUMN sso_replaces_second_factor BOOLEAN NOT NULL DEFAULT FALSE;
-- A finished sign-in that still owes the account's second factor, kept as its token's hash.
CREATE TABLE sso_second_factors (
    token_hash TEXT NOT NULL PRIMARY KEY,
    principal_id INTEGER NOT NULL REFERENCES principals(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    return_to TEXT NOT NULL,
    client_state TEXT,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
