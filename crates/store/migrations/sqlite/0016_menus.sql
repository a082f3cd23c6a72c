-- The tenant's menus: entries under a parent (activities, `CreateActivityRequest`) and one
-- entry per template (made with the template), granted to users and departments
-- (`AssignAccessRequest`). Administrators use every entry; others those granted to them or to
-- their department.
CREATE TABLE menus (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    parent_id INTEGER REFERENCES menus(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('activity', 'template')),
    template_id INTEGER REFERENCES templates(id),
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX menus_tenant ON menus (tenant_id, parent_id);

CREATE TABLE menu_access (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    menu_id INTEGER NOT NULL REFERENCES menus(id),
    principal_id INTEGER REFERENCES principals(id),
    department_id INTEGER REFERENCES departments(id),
    created_at INTEGER NOT NULL,
    CHECK ((principal_id IS NULL) <> (department_id IS NULL))
);
CREATE UNIQUE INDEX menu_access_user ON menu_access (menu_id, principal_id) WHERE principal_id IS NOT NULL;
CREATE UNIQUE INDEX menu_access_department ON menu_access (menu_id, department_id) WHERE department_id IS NOT NULL;
