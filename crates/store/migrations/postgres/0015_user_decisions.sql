-- Who set a user's current status (an administrator approving or rejecting a registration,
-- disabling, marking inactive), as the audit actor id.
ALTER TABLE principals ADD COLUMN status_by TEXT;
