-- A signatory's mobile number (issue 37, item 8: the SMS channel): E.164 (`+919876543210`) as
-- the domain's PhoneNumber checked it, or NULL when the sender gave none. Invitations and
-- reminders are also texted to it when the installation has an SMS provider.
ALTER TABLE signatories ADD COLUMN mobile TEXT;
