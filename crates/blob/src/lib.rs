//! signet-blob
