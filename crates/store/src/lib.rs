//! The only crate that names sqlx. One `Store` over SQLite (embedded default) or PostgreSQL
//! (scale-out): the same SQL text runs on both (`$n` placeholders, `RETURNING`,
//! `ON CONFLICT`); the few statements that must differ are explicit per-backend arms.

mod applications;
mod audit_anchor;
mod auth;
pub mod bench_seed;
mod bulk;
mod chain;
mod data_keys;
mod departments;
mod esign;
mod exports;
mod fields;
mod gateway;
mod ids;
mod integrity;
mod invoices;
mod jobs;
mod menus;
mod principal_cache;
mod profiles;
mod retention;
mod roles;
mod sales;
mod sqlite_reads;
mod sso;
mod stamps;
mod tenant_deletion;
mod tenants;
mod trials;
mod users;
mod webhooks;
mod workflows;

use std::str::FromStr;
use std::time::Duration;

use signet_domain::audit::AuditEntry;
use signet_domain::{Error, ErrorCode, TenantId};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

pub use applications::{ApplicationRow, NewApplication};
pub use auth::{
    AuthAttempt, AuthThrottle, NewRefreshToken, PrincipalAuth, PrincipalCredentials, RefreshUse, SigningKeyRow,
};
pub use bulk::{BulkItemRow, BulkJobRow, BulkProgress, LotRow, NewBulkJob};
pub use data_keys::DataKeyRow;
pub use esign::{EsignSubject, EsignTransactionRow, NewEsignTransaction};
pub use exports::{
    ExportFilter, ExportJobRow, ExportPage, ExportWindow, NewExportJob, SignatoryExportRow, UserExportRow,
    WorkflowExportRow,
};
pub use fields::{BoxFuture as FieldFuture, CHAIN_IP_COLUMN, FieldCipher, PAN_COLUMN, SEALED_PREFIX};
pub use gateway::{AuthtokenRow, GatewaySettings, NewTransaction, TransactionOutcome, TransactionRow};
pub use integrity::{BlobColumn, BlobReference, RowId};
pub use invoices::{BillingProfileRow, InvoiceFilter, InvoiceRow, IssueNumbers, Issued, NewInvoice};
pub use jobs::{ClaimedJob, JobRow, NewJob};
pub use menus::{AccessUserRow, Grant, GrantedDepartmentRow, Grantee, IdleGrantRow, MenuRow};
pub use profiles::{AutomatedSigner, AutomatedSigningRow, NewSigningProfile, SigningProfileRow};
pub use retention::{
    BlobsToErase, ErasureFacts, HoldRow, MAX_BATCH as MAX_ERASURE_BATCH, ObjectsToErase, PersonRecords,
    RetentionPolicies, WorkflowErasure,
};
pub use roles::RoleRow;
pub use sales::{CrmSettingsRow, LeadFilter, LeadRow, ReferralRow};
pub use sso::{
    NewSsoProvider, SavedBy, SsoDomainProofRow, SsoIdentityRow, SsoLoginRow, SsoProviderRow, SsoSecondFactorRow,
};
pub use stamps::{ArticleEditRow, NewStamp, StampClaim, StampFilter, StampRow, StampSettings, StockRow};
pub use tenant_deletion::{PLATFORM_TENANT, TenantState};
pub use tenants::{CreatedTenant, NewTenant};
pub use trials::{TenantLimits, TrialSignup};
pub use users::{CodeUse, TotpChange, TotpState, UserFields, UserFilter, UserRow, UserSort};
pub use webhooks::{DeliveryAttempt, DeliveryAttemptRow, DeliveryRow, WebhookRow};
pub use workflows::{
    AfterSignature, AttachmentRow, CreatedWorkflow, Delegate, DocumentRow, LtaCounts, LtaDue, NewAttachment,
    NewDocument, NewSignatory, NewSignerCode, NewTemplate, NewWorkflow, NewWorkflowAttachment, RenewedVersion, Shelf,
    SignatoryRow, SignedVersion, SignerCodeRow, TemplateDocument, TemplateEdit, TemplateRow, WORKFLOW_EVENTS_ANCHORED,
    WorkflowRow,
};

pub(crate) use ids::NullableId;

pub type Result<T> = std::result::Result<T, Error>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Expands the same body once per backend, with `$pool` bound to that backend's pool, so that
/// one SQL text is type-checked against both drivers.
macro_rules! on_db {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.db {
            $crate::Db::Sqlite($pool) => $body,
            $crate::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use chain::append_audit;
pub(crate) use on_db;

/// Maps a driver error to the domain: an exhausted pool or a database that cannot be reached
/// (restarting, connection lost) is a temporary outage the client may retry (503); everything
/// else is internal (the cause goes to the log, never to the client).
pub(crate) fn db_err(error: sqlx::Error) -> Error {
    if matches!(error, sqlx::Error::PoolTimedOut) {
        return Error::rejected(ErrorCode::ServiceUnavailable, "the database is busy");
    }
    if is_unreachable(&error) {
        tracing::warn!(%error, "the database is not reachable");
        return Error::rejected(ErrorCode::ServiceUnavailable, "the database is not reachable; try again shortly");
    }
    Error::internal(error)
}

/// Whether the error says the database was away rather than the statement wrong: the
/// connection failed or was lost, or the server refused work while it shuts down or starts
/// (SQLSTATE class 08 "connection exception", 57P01-57P03 "admin/crash shutdown, cannot
/// connect now").
fn is_unreachable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolClosed | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => {
            db.code().is_some_and(|code| code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03"))
        }
        _ => false,
    }
}

pub(crate) fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(db) if db.is_unique_violation())
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// sqlx takes no lock for SQLite migrations, so two processes starting on one file may race.
/// Each migration runs in its own transaction, so the loser rolls back cleanly; retrying then
/// finds the winner's migrations recorded and skips them.
async fn migrate_sqlite(pool: &SqlitePool) -> std::result::Result<(), sqlx::migrate::MigrateError> {
    let mut attempt = 0_u64;
    loop {
        match SQLITE_MIGRATIONS.run(pool).await {
            Err(error) if attempt < 20 => {
                tracing::debug!(%error, attempt, "SQLite migration raced another process; retrying");
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(25 * attempt)).await;
            }
            outcome => return outcome,
        }
    }
}

/// Opens the SQLite pool. Switching a new file to WAL takes a lock that SQLite answers with
/// "database is locked" at once (no busy wait) while another process or pool does the same, so
/// several instances opening one file together retry briefly.
async fn connect_sqlite(url: &str, options: SqliteConnectOptions, settings: &PoolSettings) -> Result<SqlitePool> {
    let mut attempt = 0_u64;
    loop {
        let opened = SqlitePoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options.clone())
            .await;
        match opened {
            Ok(pool) => return Ok(pool),
            Err(error) if attempt < 40 && error.to_string().contains("locked") => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(10 * attempt)).await;
            }
            Err(error) => return Err(Error::internal(format!("cannot open {url}: {error}"))),
        }
    }
}

/// Follows `NOTIFY signet_principals` (triggers of migration 0029) for as long as the pool is
/// open. The cache is trusted only while a listener is connected; a lost connection empties it,
/// since notifications may have been missed.
async fn listen_for_principal_changes(pool: PgPool, cache: std::sync::Arc<principal_cache::PrincipalCache>) {
    use sqlx::postgres::PgListener;
    loop {
        let listening = async {
            let mut listener = PgListener::connect_with(&pool).await?;
            listener.listen(principal_cache::CHANNEL).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        match listening.await {
            Ok(mut listener) => {
                cache.set_live(true);
                loop {
                    match listener.try_recv().await {
                        // Ok(None): the connection was lost and is back; what was sent meanwhile
                        // is unknown.
                        Ok(_) => cache.invalidate(),
                        Err(error) => {
                            cache.set_live(false);
                            if !pool.is_closed() {
                                tracing::warn!(%error, "stopped listening for principal changes; reading them every time");
                            }
                            break;
                        }
                    }
                }
            }
            Err(error) => {
                cache.set_live(false);
                if !pool.is_closed() {
                    tracing::warn!(%error, "cannot listen for principal changes; reading them every time");
                }
            }
        }
        if pool.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// PostgreSQL ends a session that sits in an open transaction this long, rolling it back and
/// freeing its row locks. No transaction of Signet waits that long between statements; one
/// that does was abandoned. The fault run (scripts/fault-run.sh) met one after a database
/// outage: a session idle in its transaction for ten minutes, holding a workflow's row while
/// every later signature on that workflow, and then every connection of the pools, waited for it.
const IDLE_IN_TRANSACTION_TIMEOUT: &str = "60s";

/// Pool settings; the defaults suit the embedded mode.
#[derive(Debug, Clone)]
pub struct PoolSettings {
    pub max_connections: u32,
    pub acquire_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings { max_connections: 16, acquire_timeout: Duration::from_secs(5) }
    }
}

#[derive(Clone)]
pub struct Store {
    db: Db,
    principals: std::sync::Arc<principal_cache::PrincipalCache>,
    /// Point reads without sqlx's thread hop, for a SQLite file (`sqlite_reads.rs`).
    sqlite_reads: Option<std::sync::Arc<sqlite_reads::SqliteReads>>,
    /// The cipher of personal fields, once the services set it (`fields.rs`).
    fields: std::sync::Arc<std::sync::OnceLock<std::sync::Arc<dyn fields::FieldCipher>>>,
}

impl Store {
    /// Connects to `sqlite://PATH` (created if missing) or `postgres://...`.
    pub async fn connect(url: &str, settings: &PoolSettings) -> Result<Store> {
        let mut sqlite_reads = None;
        let db = if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| Error::internal(format!("bad database URL: {e}")))?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
                // Erased and re-sealed personal data must not linger in the file's free space
                // (issue 34); FAST zeroes it where that costs no extra I/O.
                .pragma("secure_delete", "FAST");
            let file = options.get_filename();
            if !file.as_os_str().is_empty() && file.as_os_str() != ":memory:" {
                let reads = sqlite_reads::SqliteReads::new(file.to_path_buf(), settings.max_connections as usize);
                sqlite_reads = Some(std::sync::Arc::new(reads));
            }
            Db::Sqlite(connect_sqlite(url, options, settings).await?)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let options = PgConnectOptions::from_str(url)
                .map_err(|e| Error::internal(format!("bad database URL: {e}")))?
                .options([("idle_in_transaction_session_timeout", IDLE_IN_TRANSACTION_TIMEOUT)]);
            let pool = PgPoolOptions::new()
                .max_connections(settings.max_connections)
                .acquire_timeout(settings.acquire_timeout)
                .connect_with(options)
                .await
                .map_err(|e| Error::internal(format!("cannot connect to PostgreSQL: {e}")))?;
            Db::Postgres(pool)
        } else {
            return Err(Error::internal(format!(
                "unsupported database URL {url:?}: use sqlite://PATH or postgres://..."
            )));
        };
        Ok(Store { db, principals: principal_cache::PrincipalCache::new(), sqlite_reads, fields: Default::default() })
    }

    /// Keeps what authenticated requests check about their principal in memory for up to `ttl`
    /// (`principal_cache.rs` tells how revocation still takes effect at once); on PostgreSQL it
    /// also listens for changes made by other instances. A zero `ttl` reads every time.
    pub fn cache_principals(&self, ttl: Duration) {
        self.principals.set_ttl(ttl);
        if ttl.is_zero() {
            return;
        }
        match &self.db {
            Db::Sqlite(_) => self.principals.set_live(true),
            Db::Postgres(pool) => {
                tokio::spawn(listen_for_principal_changes(pool.clone(), self.principals.clone()));
            }
        }
    }

    /// Something about principals or roles changed and committed in this process.
    pub(crate) fn principals_changed(&self) {
        self.principals.invalidate();
    }

    pub fn backend(&self) -> Backend {
        match self.db {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    /// Applies pending migrations. On PostgreSQL the migrator holds an advisory lock, so
    /// several instances may start at once; SQLite serialises through its write lock.
    pub async fn migrate(&self) -> Result<()> {
        let outcome = match &self.db {
            Db::Sqlite(pool) => migrate_sqlite(pool).await,
            Db::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await,
        };
        outcome.map_err(|e| Error::internal(format!("migration failed: {e}")))
    }

    /// A round trip to the database, for readiness checks.
    pub async fn ping(&self) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("SELECT 1").execute(pool).await.map_err(db_err)?;
        });
        Ok(())
    }

    pub async fn close(&self) {
        on_db!(self, pool => pool.close().await)
    }

    /// A tenant's audit entries in chain order, starting after `after_seq`, every event
    /// committed before the call included (`audit_anchor.rs`).
    pub async fn audit_entries(&self, tenant_id: TenantId, after_seq: i64, limit: i64) -> Result<Vec<AuditEntry>> {
        self.link_audit(tenant_id).await?;
        let rows: Vec<chain::EntryRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {columns} FROM audit_log \
                 WHERE tenant_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                columns = chain::ENTRY_COLUMNS,
            )))
            .bind(tenant_id.get())
            .bind(after_seq)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        self.open_entries(tenant_id.get(), rows).await
    }

    /// Runs raw SQL; only for tests that need to tamper with rows.
    #[doc(hidden)]
    pub async fn execute_for_tests(&self, sql: &'static str) -> Result<u64> {
        let done = on_db!(self, pool => {
            sqlx::query(sql).execute(pool).await.map_err(db_err)?.rows_affected()
        });
        Ok(done)
    }

    /// Appends an audit entry as entries were written before addresses were committed to (the
    /// address itself hashed, in `ip`); only for tests of the pass that seals those.
    #[doc(hidden)]
    pub async fn append_audit_in_clear_for_tests(
        &self,
        tenant_id: TenantId,
        event: &signet_domain::audit::AuditEvent,
    ) -> Result<()> {
        self.link_audit(tenant_id).await?;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let ip = chain::StoredIp { hashed: event.ip.clone(), sealed: None };
            chain::append_chain!(tx, &chain::AUDIT_CHAIN, tenant_id.get(), event, ip);
            tx.commit().await.map_err(db_err)?;
        });
        Ok(())
    }

    /// Runs raw SQL that returns one id (`INSERT … RETURNING id`); only for tests that seed rows.
    #[doc(hidden)]
    pub async fn fetch_id_for_tests(&self, sql: &'static str) -> Result<i64> {
        let (id,): (i64,) = on_db!(self, pool => {
            sqlx::query_as(sql).fetch_one(pool).await.map_err(db_err)?
        });
        Ok(id)
    }
}

/// Helpers for test suites that run against both backends.
#[doc(hidden)]
pub mod testing {
    use sqlx::Connection;

    /// The PostgreSQL server tests use: `SIGNET_TEST_POSTGRES_URL`, by default the local one.
    pub fn postgres_admin_url() -> String {
        std::env::var("SIGNET_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
    }

    /// Creates an empty database with a unique name and returns its URL, so that each test
    /// has its own PostgreSQL database as each SQLite test has its own file.
    pub async fn fresh_postgres_database() -> Result<String, String> {
        let admin = postgres_admin_url();
        let mut conn = sqlx::PgConnection::connect(&admin)
            .await
            .map_err(|e| format!("PostgreSQL is needed for these tests ({admin}): {e}"))?;
        let mut bytes = [0u8; 8];
        unique_suffix(&mut bytes);
        let name = format!("signet_test_{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>());
        let statement = format!("CREATE DATABASE {name}");
        sqlx::raw_sql(sqlx::AssertSqlSafe(statement))
            .execute(&mut conn)
            .await
            .map_err(|e| format!("cannot create test database: {e}"))?;
        let _ = conn.close().await;
        let base = admin.rsplit_once('/').map(|(base, _)| base.to_string()).unwrap_or(admin.clone());
        Ok(format!("{base}/{name}"))
    }

    fn unique_suffix(bytes: &mut [u8]) {
        use std::time::{SystemTime, UNIX_EPOCH};
        // Uniqueness, not secrecy: time, process id and a counter are enough.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0) as u64;
        let mixed = nanos
            ^ (u64::from(std::process::id()) << 32)
            ^ COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        bytes.copy_from_slice(&mixed.to_be_bytes()[..bytes.len().min(8)]);
    }
}

#[cfg(test)]
mod outage_tests {
    use super::*;

    fn code_of(error: Error) -> Option<ErrorCode> {
        match error {
            Error::Rejected { code, .. } => Some(code),
            _ => None,
        }
    }

    #[test]
    fn a_lost_connection_is_a_temporary_outage() {
        let refused = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(code_of(db_err(refused)), Some(ErrorCode::ServiceUnavailable));
        assert_eq!(code_of(db_err(sqlx::Error::PoolClosed)), Some(ErrorCode::ServiceUnavailable));
        assert_eq!(code_of(db_err(sqlx::Error::PoolTimedOut)), Some(ErrorCode::ServiceUnavailable));
    }

    /// Every PostgreSQL session of the pool carries the time-out, so an abandoned transaction
    /// cannot hold its locks for longer.
    #[tokio::test]
    async fn postgres_sessions_end_abandoned_transactions() -> Result<()> {
        let url = signet_testkit::db::fresh_postgres_database().await;
        let store = Store::connect(&url, &PoolSettings::default()).await?;
        let Db::Postgres(pool) = &store.db else { panic!("a PostgreSQL store") };
        let shown: String =
            sqlx::query_scalar("SHOW idle_in_transaction_session_timeout").fetch_one(pool).await.map_err(db_err)?;
        assert_eq!(shown, "1min");
        store.close().await;
        Ok(())
    }

    #[test]
    fn other_driver_errors_stay_internal() {
        assert!(matches!(db_err(sqlx::Error::RowNotFound), Error::Internal(_)));
        assert!(matches!(db_err(sqlx::Error::ColumnNotFound("x".into())), Error::Internal(_)));
    }
}
