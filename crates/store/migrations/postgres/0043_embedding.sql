-- Embedded signing (issue 35, item 4): the origins an organisation lets frame its signer pages
-- (newline-separated, each as browsers write an origin), and the accent colour and logo the
-- embedded pages show. No row: embedding is off.
CREATE TABLE tenant_embedding (
    tenant_id BIGINT NOT NULL PRIMARY KEY REFERENCES tenants(id),
    origins TEXT NOT NULL,
    accent TEXT,
    logo BYTEA,
    logo_type TEXT,
    updated_at BIGINT NOT NULL
);
