-- On PostgreSQL this migration adds triggers that notify instances of changes to principals and
-- roles (their cache of what authenticated requests check). SQLite has no notifications: an
-- instance drops its cache on its own writes, and another process's writes to the same file
-- are seen within `auth_cache_ms`. Kept so that both backends count the same migrations.
SELECT 1;
