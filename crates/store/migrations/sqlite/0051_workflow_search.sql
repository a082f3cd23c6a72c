-- Issue 38: the workflow list's search (a part of the name, the reference, a signer's name or
-- address) on an index. A substring cannot use a b-tree, so each searched text is also kept in
-- an FTS5 table with the trigram tokenizer, whose phrase queries find any substring of three
-- characters or more; the store narrows the workflows to those ids, then applies the exact
-- condition it always did (shorter searches scan as before). The rows follow the tables by
-- triggers; rowid is the workflow's (the signatory's) id; tenant_id comes first, as everywhere.
CREATE VIRTUAL TABLE workflow_search USING fts5(
    tenant_id UNINDEXED, name, reference_no, tokenize = 'trigram'
);
CREATE VIRTUAL TABLE signatory_search USING fts5(
    tenant_id UNINDEXED, workflow_id UNINDEXED, name, email, tokenize = 'trigram'
);

INSERT INTO workflow_search (rowid, tenant_id, name, reference_no)
    SELECT id, tenant_id, name, coalesce(reference_no, '') FROM workflows;
INSERT INTO signatory_search (rowid, tenant_id, workflow_id, name, email)
    SELECT id, tenant_id, workflow_id, name, email FROM signatories;

CREATE TRIGGER workflow_search_insert AFTER INSERT ON workflows BEGIN
    INSERT INTO workflow_search (rowid, tenant_id, name, reference_no)
        VALUES (new.id, new.tenant_id, new.name, coalesce(new.reference_no, ''));
END;
CREATE TRIGGER workflow_search_update AFTER UPDATE OF name, reference_no ON workflows BEGIN
    UPDATE workflow_search SET name = new.name, reference_no = coalesce(new.reference_no, '') WHERE rowid = new.id;
END;
CREATE TRIGGER workflow_search_delete AFTER DELETE ON workflows BEGIN
    DELETE FROM workflow_search WHERE rowid = old.id;
END;

CREATE TRIGGER signatory_search_insert AFTER INSERT ON signatories BEGIN
    INSERT INTO signatory_search (rowid, tenant_id, workflow_id, name, email)
        VALUES (new.id, new.tenant_id, new.workflow_id, new.name, new.email);
END;
CREATE TRIGGER signatory_search_update AFTER UPDATE OF name, email ON signatories BEGIN
    UPDATE signatory_search SET name = new.name, email = new.email WHERE rowid = new.id;
END;
CREATE TRIGGER signatory_search_delete AFTER DELETE ON signatories BEGIN
    DELETE FROM signatory_search WHERE rowid = old.id;
END;
