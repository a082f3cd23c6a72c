//! signet-store
