-- A tenant's own roles: a name and the permissions they grant (comma-separated names); a
-- user with one has it instead of their built-in role.
CREATE TABLE roles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    name TEXT NOT NULL,
    permissions TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX roles_tenant_name ON roles (tenant_id, lower(name));
ALTER TABLE principals ADD COLUMN custom_role_id INTEGER REFERENCES roles(id);
