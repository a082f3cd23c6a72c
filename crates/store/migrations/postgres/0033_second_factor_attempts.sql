-- Second-factor codes tried per account, from any address (signet_domain::authority::sessions):
-- the attempts of the current window, and until when the account's second factor is locked.
-- A table of its own, not columns of principals, so that counting a guess does not empty every
-- instance's cache of principals (the triggers of 0029).
CREATE TABLE second_factor_attempts (
    principal_id BIGINT PRIMARY KEY REFERENCES principals(id),
    window_start BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    locked_until BIGINT NOT NULL DEFAULT 0
);
