-- SQLite lets a PRIMARY KEY column that is not an INTEGER rowid hold NULL unless it is
-- declared NOT NULL (a documented quirk kept for compatibility); PostgreSQL never does. The
-- two TEXT keys below were therefore nullable here only. SQLite cannot change a column's
-- constraints in place, so both tables are rebuilt with the same columns in the same order.
-- (PostgreSQL needs no counterpart: its primary keys are NOT NULL already.)

CREATE TABLE signing_keys_rebuilt (
    purpose TEXT NOT NULL PRIMARY KEY,
    kid TEXT NOT NULL,
    private_der BLOB NOT NULL,
    public_raw BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO signing_keys_rebuilt (purpose, kid, private_der, public_raw, created_at)
    SELECT purpose, kid, private_der, public_raw, created_at FROM signing_keys WHERE purpose IS NOT NULL;
DROP TABLE signing_keys;
ALTER TABLE signing_keys_rebuilt RENAME TO signing_keys;

CREATE TABLE auth_failures_rebuilt (
    account_key TEXT NOT NULL PRIMARY KEY,
    window_start INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    blocked_until INTEGER NOT NULL DEFAULT 0,
    delay_ms INTEGER NOT NULL DEFAULT 0
);
INSERT INTO auth_failures_rebuilt (account_key, window_start, failures, blocked_until, delay_ms)
    SELECT account_key, window_start, failures, blocked_until, delay_ms FROM auth_failures WHERE account_key IS NOT NULL;
DROP TABLE auth_failures;
ALTER TABLE auth_failures_rebuilt RENAME TO auth_failures;
