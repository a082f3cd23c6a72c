-- The console's dashboard counts an organisation's workflows by state (issue 37, item 5): an
-- index on (tenant_id, state) answers the count from the index alone, without reading rows.
CREATE INDEX workflows_tenant_state ON workflows (tenant_id, state);
