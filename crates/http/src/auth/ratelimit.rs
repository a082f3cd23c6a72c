//! A fixed-window limiter per client address for the token endpoints and public verification.
//! It lives in `signet_services::platform::limits` (the pages count against the same one, so one door
//! does not add to another's allowance); the per-account failure limit lives in the database.

pub use signet_services::platform::limits::IpRateLimiter;
