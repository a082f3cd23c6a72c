//! signet-sigcrypto
