//! Shared test support for Signet's test suites.
//!
//! - [`on_both_backends!`] turns `async fn name(backend: Backend)` into a SQLite and a PostgreSQL
//!   test; [`db`] gives each test its own database (a file, or a fresh PostgreSQL database).
//! - [`pdf`]: inputs made by another producer (reportlab), on purpose not by our own PDF code.
//! - [`validators`]: pdfsig and pyHanko as outside judges of what we sign.
//! - `http` feature: `problem` (ProblemDetails and post-back pages), `gateway` (an
//!   integrator's side of the signing gateway), `smtp` (a real SMTP server that keeps what it
//!   receives), `process` (the `signet` binary as a child process) and `blocking` (a
//!   synchronous HTTP client for tests that drive child processes).
//! - `pki` feature: `pki`, certificates from the project's own local CA, and TSAs we did not
//!   write (`openssl ts`, pyHanko's) answering in the profile a test asks for (`TsaProfile`);
//!   `ca`, an outside CA publishing a CRL over HTTP and answering OCSP through `openssl ocsp`.
//! - `db` feature (default): `db` and [`on_both_backends!`]; crates below the store leave it out.
//! - `server` feature: `server`, the real `signet_server::App` on port 0 with a tenant helper;
//!   `sms`, a local SMS provider speaking Twilio's Messages API.
//!
//! Test code: panicking on a broken fixture is the right failure, so `expect` is used freely.

#[cfg(feature = "db")]
pub mod db;
pub mod pdf;
pub mod validators;

#[cfg(feature = "http")]
pub mod blocking;
#[cfg(feature = "http")]
pub mod gateway;
#[cfg(feature = "http")]
pub mod problem;
#[cfg(feature = "http")]
pub mod process;
#[cfg(feature = "http")]
pub mod smtp;
#[cfg(feature = "http")]
pub mod workflow;

#[cfg(feature = "pki")]
pub mod ca;
#[cfg(feature = "pki")]
pub mod pki;
#[cfg(feature = "pki")]
pub mod token;

#[cfg(feature = "server")]
pub mod console;
#[cfg(feature = "server")]
pub mod dns;
#[cfg(feature = "server")]
pub mod people;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod sms;

#[cfg(feature = "db")]
pub use signet_store::Backend;

/// Turns each `async fn NAME(backend: Backend)` of the calling module into a module `NAME`
/// with two tests, `sqlite` and `postgres` (so `cargo nextest run NAME::postgres` picks one).
/// The runtime has two worker threads: the server and the test's client run side by side.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name($crate::Backend::Sqlite).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name($crate::Backend::Postgres).await
            }
        }
    )*};
}

/// The directory of this crate, where the helper scripts live.
pub(crate) const KIT_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A helper script shipped in `crates/testkit/scripts`.
pub fn script(name: &str) -> std::path::PathBuf {
    std::path::Path::new(KIT_DIR).join("scripts").join(name)
}
