-- Digital e-stamping (docs/estamp-provider.md): certificates a stamp provider issued for a
-- request are kept beside the tenant's inventory, marked `provider` with the provider's
-- reference. They are never stock: they name the parties of one agreement, so they are
-- allocated to its workflow or retired, never made available to another document.
ALTER TABLE stamps ADD COLUMN source TEXT NOT NULL DEFAULT 'inventory' CHECK (source IN ('inventory', 'provider'));
ALTER TABLE stamps ADD COLUMN provider_ref TEXT;
