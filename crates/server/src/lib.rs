//! signet-server
