//! Signet's end-to-end tests: the whole server, on SQLite and PostgreSQL, through its API,
//! pages, gateway and browser drivers (`../browser`).
//!
//! One test binary rather than one per file: each binary links the whole server, and linking
//! two dozen of them dominated the build of the tests. A test is named `<module>::<test>`, so
//! `cargo nextest run --workspace -E 'binary(e2e) & test(/^console::/)'` runs one former file.

mod access;
mod api;
mod at_rest;
mod budgets;
mod bulk;
mod compose;
mod console;
mod embedding;
mod esign;
mod esign_failover;
mod estamp;
mod evidence;
mod exports;
mod gateway;
mod gateway_browser;
mod gateway_hash;
mod hardening;
mod integrity;
mod invoices;
mod isolation;
mod language;
mod leads;
mod openapi;
mod people;
mod retention;
mod sms;
mod sso;
mod stamps;
mod support;
mod token;
mod verification;
mod webhooks;
mod workflows;
