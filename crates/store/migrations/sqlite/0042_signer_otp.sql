-- The signer's code by SMS (issue 37, item 8): a signatory the sender marked `otp_sms` signs
-- only after typing a one-time code texted to their mobile number.
ALTER TABLE signatories ADD COLUMN otp_sms BOOLEAN NOT NULL DEFAULT FALSE;

-- One row per signatory: their live code (only its HMAC, with a random salt), its expiry and
-- wrong tries, when the last one was sent and how many were sent in the current day of the
-- current link version (a rotated link starts the count again), and the last verification
-- (when, for which link version). A new code replaces the old one.
CREATE TABLE signer_codes (
    signatory_id INTEGER NOT NULL PRIMARY KEY REFERENCES signatories(id),
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    link_version INTEGER NOT NULL,
    code_hash TEXT NOT NULL,
    code_salt TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    used_at INTEGER,
    sent_at INTEGER NOT NULL,
    day_started_at INTEGER NOT NULL,
    sends_in_day INTEGER NOT NULL,
    verified_at INTEGER,
    verified_version INTEGER
);
