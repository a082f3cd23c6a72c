-- Instances cache what authenticated requests check about their principal (security stamp,
-- state, role); any change to principals or roles, by any instance or by hand, tells them all
-- to drop that cache. Statement-level, and a payload that is always the same, so that one
-- transaction sends one notification however many rows it touches.
CREATE OR REPLACE FUNCTION signet_principals_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('signet_principals', '');
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER principals_changed AFTER UPDATE OR DELETE ON principals
    FOR EACH STATEMENT EXECUTE FUNCTION signet_principals_changed();
CREATE TRIGGER roles_changed AFTER UPDATE OR DELETE ON roles
    FOR EACH STATEMENT EXECUTE FUNCTION signet_principals_changed();
