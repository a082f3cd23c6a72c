-- Customer referrals and CRM leads (docs/api.md, "Referrals and CRM leads").
-- `referrals`: who referred whom in a tenant; a referred person is recorded once per tenant (by
-- lower-cased e-mail and by mobile number without separators; the unique indexes keep it so).
-- `crm_leads`: sales leads, upserted by key (one row per key: the unique index) or by contact;
-- every change raises `version` and puts the lead in the outbox (`push_state` 'pending' with a
-- `crm.push` job); the last push's outcome is kept with it. `crm_settings`: the tenant's CRM
-- endpoint and the secret its pushes are signed with.
CREATE TABLE referrals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    referrer_name TEXT NOT NULL,
    referrer_mobile TEXT NOT NULL,
    referrer_email TEXT NOT NULL,
    referral_name TEXT NOT NULL,
    referral_mobile TEXT NOT NULL,
    referral_email TEXT NOT NULL,
    referral_email_key TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX referrals_tenant_email ON referrals (tenant_id, referral_email_key);
CREATE UNIQUE INDEX referrals_tenant_mobile ON referrals (tenant_id, referral_mobile);

CREATE TABLE crm_leads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    lead_key TEXT,
    visitor_id TEXT,
    name TEXT,
    email TEXT,
    email_key TEXT,
    mobile TEXT,
    dialcode TEXT,
    plan_name TEXT,
    billing_cycle TEXT,
    subscription_mode TEXT,
    currency TEXT,
    state TEXT,
    partner_referral_code TEXT,
    client_ip TEXT,
    user_agent TEXT,
    plan_id INTEGER NOT NULL,
    amount REAL NOT NULL,
    num_users INTEGER,
    num_envelopes INTEGER,
    version INTEGER NOT NULL,
    push_state TEXT NOT NULL CHECK (push_state IN ('pending', 'pushed', 'failed')),
    push_stage TEXT,
    push_success BOOLEAN,
    crm_lead_id TEXT,
    push_error TEXT,
    pushed_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX crm_leads_tenant_key ON crm_leads (tenant_id, lead_key);
CREATE INDEX crm_leads_tenant_email ON crm_leads (tenant_id, email_key);
CREATE INDEX crm_leads_tenant_mobile ON crm_leads (tenant_id, mobile);

CREATE TABLE crm_settings (
    tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
