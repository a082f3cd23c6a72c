-- What a sender is e-mailed about the workflows they send (issue 37, item 1), each their own
-- choice: a completed workflow and a declined one by default, each signature when they ask.
ALTER TABLE principals ADD COLUMN notify_completed BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE principals ADD COLUMN notify_declined BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE principals ADD COLUMN notify_signed BOOLEAN NOT NULL DEFAULT FALSE;
