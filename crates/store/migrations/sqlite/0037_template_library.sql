-- Templates as a library (issue 37, item 9): a template keeps its document (a PDF in the blob
-- store, as workflow documents are), so that sending from it needs no upload, and may be
-- archived: no longer offered on send, still readable for the workflows that used it.
ALTER TABLE templates ADD COLUMN document_name TEXT;
ALTER TABLE templates ADD COLUMN document_blob TEXT;
ALTER TABLE templates ADD COLUMN document_pages INTEGER;
ALTER TABLE templates ADD COLUMN archived_at INTEGER;
