//! signet-domain
