//! signet-pdf
