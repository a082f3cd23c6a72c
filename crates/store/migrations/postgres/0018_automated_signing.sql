-- Certificates users enrol themselves (a signing profile owned by the user), and each user's
-- automated-signing settings (AutomatedSigningData): the profile, the consent given (time and
-- address), and the default reason and location of their signatures.
ALTER TABLE signing_profiles ADD COLUMN owner_id BIGINT REFERENCES principals(id);
ALTER TABLE principals ADD COLUMN auto_sign_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE principals ADD COLUMN auto_sign_profile_id BIGINT REFERENCES signing_profiles(id);
ALTER TABLE principals ADD COLUMN auto_sign_consent_at BIGINT;
ALTER TABLE principals ADD COLUMN auto_sign_consent_ip TEXT;
ALTER TABLE principals ADD COLUMN auto_sign_reason TEXT;
ALTER TABLE principals ADD COLUMN auto_sign_location TEXT;
