-- Issue 38: the workflow list's search (a part of the name, the reference, a signer's name or
-- address) on an index. A substring (LIKE '%text%') cannot use a b-tree; pg_trgm's GIN
-- operator class can, for three characters or more, and btree_gin lets tenant_id lead the
-- index as it leads every other. Both extensions ship with PostgreSQL (contrib) and are trusted
-- (a database owner may create them); where they are missing or may not be created, the
-- indexes are left out and the search scans as before (the same SQL either way).
DO $$
BEGIN
    IF (SELECT count(*) FROM pg_available_extensions WHERE name IN ('pg_trgm', 'btree_gin')) = 2 THEN
        BEGIN
            CREATE EXTENSION IF NOT EXISTS pg_trgm;
            CREATE EXTENSION IF NOT EXISTS btree_gin;
            CREATE INDEX workflows_search_trgm ON workflows
                USING gin (tenant_id, lower(name) gin_trgm_ops, lower(coalesce(reference_no, '')) gin_trgm_ops);
            CREATE INDEX signatories_search_trgm ON signatories
                USING gin (tenant_id, lower(name) gin_trgm_ops, lower(email) gin_trgm_ops);
        EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
            RAISE NOTICE 'pg_trgm or btree_gin unavailable (%): the workflow search scans', SQLERRM;
        END;
    END IF;
END $$;
