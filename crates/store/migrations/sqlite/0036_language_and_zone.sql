-- The signer's language and the organisation's time zone (issue 37, item 3). A workflow may
-- fix the language of its signer pages and e-mails (a code such as 'hi'; NULL: each signer's
-- browser decides, e-mails in English); an organisation names its time zone (an IANA name such
-- as 'Asia/Dubai'; NULL: India Standard Time), in which every time it shows is written.
ALTER TABLE workflows ADD COLUMN signer_lang TEXT;
ALTER TABLE tenants ADD COLUMN time_zone TEXT;
