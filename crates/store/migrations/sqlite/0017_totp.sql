-- A second factor for staff (TOTP, RFC 6238): the shared secret sealed with a key derived
-- from the platform's derivation secret (bound to the user), whether it is confirmed, and the
-- last time step used (a code is accepted once).
ALTER TABLE principals ADD COLUMN totp_secret BLOB;
ALTER TABLE principals ADD COLUMN totp_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE principals ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;
