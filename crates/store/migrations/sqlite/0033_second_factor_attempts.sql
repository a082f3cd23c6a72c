-- Second-factor codes tried per account, from any address (signet_domain::authority::sessions):
-- the attempts of the current window, and until when the account's second factor is locked.
-- A table of its own, not columns of principals, so that counting a guess does not touch the
-- principals that every request's check reads.
CREATE TABLE second_factor_attempts (
    principal_id INTEGER PRIMARY KEY REFERENCES principals(id),
    window_start INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    locked_until INTEGER NOT NULL DEFAULT 0
);
