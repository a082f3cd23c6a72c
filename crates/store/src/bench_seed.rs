//! **For benchmarks and tests only**: fills a tenant with many workflows at once (issue 38,
//! `signet bench seed`). Rows go in as multi-row `INSERT`s (the same SQL text on both backends)
//! in large transactions, a batch at a time, so memory stays constant whatever the count. Each
//! workflow gets one document (every document names the same small blob, written once by the
//! caller), three sequential signatories, its own event chain, and `audit_per_workflow` entries
//! in the tenant's audit log; both chains are hashed as they are inserted by `Unlinked::link`,
//! the rule every append uses, so they verify with the domain's verifier.
//!
//! Ids are given explicitly (after the largest in use), so the seeder expects no other writer
//! of the same tables while it runs: it is not for a live installation.

use signet_domain::audit::{GENESIS_HASH, WorkflowEventKind};
use signet_domain::workflow::{DocumentState, SignatoryState, WorkflowState};
use signet_domain::{Millis, TenantId};

use crate::chain::Unlinked;
use crate::{Result, Store, db_err, on_db};

/// Workflows generated and inserted per statement group.
const BATCH: u64 = 500;
/// Batches per transaction (10,000 workflows).
const BATCHES_PER_TRANSACTION: u64 = 20;
/// Bound parameters per statement: below SQLite's 32,766 and PostgreSQL's 65,535.
const MAX_PARAMS: usize = 30_000;
const DAY: Millis = 86_400_000;

/// What to seed.
#[derive(Debug, Clone)]
pub struct SeedPlan {
    pub workflows: u64,
    /// Entries of the tenant's audit log per workflow.
    pub audit_per_workflow: u32,
    /// The one blob every seeded document names (already in the blob store).
    pub blob_key: String,
    pub blob_sha256: String,
    pub blob_size: i64,
    /// The actor recorded as each workflow's sender (e.g. `user:1`).
    pub sender: String,
    /// Workflows are spread from `now - years` to `now`, the oldest first.
    pub now: Millis,
    pub years: u32,
    /// Varies names and states between runs and tenants (the same seed gives the same data).
    pub seed: u64,
}

/// What was inserted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seeded {
    pub workflows: u64,
    pub documents: u64,
    pub signatories: u64,
    pub workflow_events: u64,
    pub audit_events: u64,
}

/// A bound value of a generated row.
enum V {
    I(i64),
    N(Option<i64>),
    T(String),
    S(&'static str),
    O(Option<String>),
}

/// Rows of one table, flat (`cols` values a row).
struct Rows {
    table: &'static str,
    cols: &'static [&'static str],
    values: Vec<V>,
}

impl Rows {
    fn new(table: &'static str, cols: &'static [&'static str]) -> Rows {
        Rows { table, cols, values: Vec::new() }
    }

    fn push(&mut self, row: impl IntoIterator<Item = V>) {
        let before = self.values.len();
        self.values.extend(row);
        debug_assert_eq!(self.values.len() - before, self.cols.len());
    }

    /// The statement inserting `rows` rows. SQLite gets anonymous `?` placeholders: for each
    /// `$n`, sqlx asks SQLite the parameter's name, which SQLite finds by a linear search, so
    /// thousands of `$n` in one statement cost quadratic time (80 s for 2,000 workflows).
    fn sql(&self, rows: usize, anonymous: bool) -> String {
        let mut sql = format!("INSERT INTO {} ({}) VALUES ", self.table, self.cols.join(", "));
        let mut n = 0;
        for r in 0..rows {
            if r > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..self.cols.len() {
                if c > 0 {
                    sql.push_str(", ");
                }
                n += 1;
                if anonymous {
                    sql.push('?');
                } else {
                    sql.push('$');
                    sql.push_str(&n.to_string());
                }
            }
            sql.push(')');
        }
        sql
    }
}

/// Inserts `$rows` (a `Rows`) in statements of at most `MAX_PARAMS` values.
macro_rules! insert_rows {
    ($tx:expr, $rows:expr, $anonymous:expr) => {{
        let rows: &Rows = $rows;
        let per_statement = (MAX_PARAMS / rows.cols.len()).max(1);
        for chunk in rows.values.chunks(per_statement * rows.cols.len()) {
            let sql = rows.sql(chunk.len() / rows.cols.len(), $anonymous);
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for value in chunk {
                query = match value {
                    V::I(v) => query.bind(*v),
                    V::N(v) => query.bind(*v),
                    V::T(v) => query.bind(v.as_str()),
                    V::S(v) => query.bind(*v),
                    V::O(v) => query.bind(v.as_deref()),
                };
            }
            query.execute(&mut *$tx).await.map_err(db_err)?;
        }
    }};
}

/// splitmix64: deterministic, good enough to vary names and states.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const FIRST: &[&str] = &[
    "Meena", "Ravi", "Anita", "Suresh", "Priya", "Arjun", "Kavita", "Vikram", "Lakshmi", "Rahul", "Deepa", "Sanjay",
    "Pooja", "Amit", "Neha", "Rajesh", "Sunita", "Karan", "Divya", "Manoj", "Asha", "Nikhil", "Rekha", "Gaurav",
    "Farah", "Imran", "Joseph", "Mary", "Harpreet", "Gurpreet", "Tenzin", "Ayesha",
];
const LAST: &[&str] = &[
    "Iyer",
    "Sharma",
    "Patel",
    "Reddy",
    "Nair",
    "Gupta",
    "Singh",
    "Khan",
    "Das",
    "Menon",
    "Rao",
    "Joshi",
    "Kulkarni",
    "Banerjee",
    "Chatterjee",
    "Pillai",
    "Verma",
    "Mehta",
    "Shah",
    "Agarwal",
    "Fernandes",
    "D'Souza",
    "Bhat",
    "Kaur",
];
const PRODUCTS: &[(&str, &str)] = &[
    ("Home loan agreement", "HL"),
    ("Personal loan agreement", "PL"),
    ("Vehicle loan agreement", "VL"),
    ("Gold loan sanction letter", "GL"),
    ("Business loan agreement", "BL"),
    ("Loan against property", "LAP"),
    ("Credit card application", "CC"),
    ("Account opening form", "AO"),
];
/// What a workflow's entries in the tenant's audit log say, in turn.
const AUDIT_ACTIONS: &[&str] = &[
    "document.uploaded",
    "workflow.created",
    "signatory.notified",
    "signatory.viewed",
    "signatory.signed",
    "signatory.notified",
    "signatory.viewed",
    "signatory.signed",
    "signatory.signed",
    "document.downloaded",
];

/// The ids after which this transaction's rows go.
struct NextIds {
    workflow: i64,
    document: i64,
    signatory: i64,
}

/// One transaction's worth of generated rows.
struct Generated {
    workflows: Rows,
    documents: Rows,
    signatories: Rows,
    events: Rows,
    audit: Rows,
}

const WORKFLOW_COLS: &[&str] = &[
    "id",
    "tenant_id",
    "name",
    "reference_no",
    "workflow_type",
    "state",
    "state_reason",
    "current_order",
    "settings",
    "expires_at",
    "linked_ids",
    "created_by",
    "event_seq",
    "event_head",
    "created_at",
    "updated_at",
    "completed_at",
    "ended_at",
];
const DOCUMENT_COLS: &[&str] = &[
    "id",
    "tenant_id",
    "workflow_id",
    "position",
    "name",
    "reference_no",
    "state",
    "original_blob",
    "original_sha256",
    "size_bytes",
    "page_count",
    "current_blob",
    "current_sha256",
    "version",
    "created_by",
    "created_at",
    "updated_at",
];
const SIGNATORY_COLS: &[&str] = &[
    "id",
    "tenant_id",
    "workflow_id",
    "subscriber_id",
    "email",
    "name",
    "signing_order",
    "state",
    "link_expires_at",
    "placement",
    "reason",
    "method",
    "notified_at",
    "viewed_at",
    "signed_at",
    "created_at",
    "updated_at",
];
const EVENT_COLS: &[&str] =
    &["workflow_id", "seq", "at", "actor", "action", "target", "ip", "detail", "prev_hash", "hash"];
const AUDIT_COLS: &[&str] =
    &["tenant_id", "seq", "at", "actor", "action", "target", "ip", "detail", "prev_hash", "hash"];

/// The running head of the tenant's audit chain.
struct AuditHead {
    seq: i64,
    hash: String,
}

/// Links `event` after `prev` at `seq` in the chain of `owner`, adds its row and answers its hash.
fn push_entry(rows: &mut Rows, owner: i64, seq: i64, prev: String, event: Unlinked) -> String {
    let entry = event.link(owner, seq, prev);
    let hash = entry.hash.clone();
    rows.push([
        V::I(owner),
        V::I(entry.seq),
        V::I(entry.at),
        V::T(entry.actor),
        V::T(entry.action),
        V::T(entry.target),
        V::O(entry.ip),
        V::T(entry.detail),
        V::T(entry.prev_hash),
        V::T(entry.hash),
    ]);
    hash
}

fn unlinked(at: Millis, actor: &str, action: &str, target: String, detail: String) -> Unlinked {
    Unlinked { at, actor: actor.to_string(), action: action.to_string(), target, ip: None, detail }
}

/// Generates workflows `from..to` (indexes into the plan) of the tenant.
fn generate(tenant: i64, plan: &SeedPlan, from: u64, to: u64, ids: &mut NextIds, head: &mut AuditHead) -> Generated {
    let mut g = Generated {
        workflows: Rows::new("workflows", WORKFLOW_COLS),
        documents: Rows::new("documents", DOCUMENT_COLS),
        signatories: Rows::new("signatories", SIGNATORY_COLS),
        events: Rows::new("workflow_events", EVENT_COLS),
        audit: Rows::new("audit_log", AUDIT_COLS),
    };
    let span = i64::from(plan.years.max(1)) * 365 * DAY;
    let start = plan.now - span;
    let step = (span / plan.workflows.max(1) as i64).max(1);
    for i in from..to {
        let mut mix =
            Mix(plan.seed ^ (tenant as u64).wrapping_mul(0x1000_0001) ^ i.wrapping_mul(0x2545_F491_4F6C_DD1D));
        ids.workflow += 1;
        let workflow_id = ids.workflow;
        let created = start + i as i64 * step + mix.below(step as u64) as i64;
        let age = plan.now - created;
        let roll = mix.below(100);
        let state = if age < 30 * DAY {
            match roll {
                0..70 => WorkflowState::InProgress,
                70..95 => WorkflowState::Completed,
                _ => WorkflowState::Declined,
            }
        } else {
            match roll {
                0..85 => WorkflowState::Completed,
                85..90 => WorkflowState::Declined,
                90..96 => WorkflowState::Expired,
                _ => WorkflowState::Inactive,
            }
        };
        // How many signed: all when completed, else fewer.
        let signed: usize = match state {
            WorkflowState::Completed => 3,
            _ => mix.below(3) as usize,
        };
        let (product, code) = PRODUCTS[mix.below(PRODUCTS.len() as u64) as usize];
        let year = 1970 + created / 31_556_952_000;
        let reference = format!("{code}/{year}/{:07}", i + 1);
        let signer_names: Vec<String> = (0..3).map(|_| format!("{} {}", mix.pick(FIRST), mix.pick(LAST))).collect();
        let name = format!("{product} - {}", signer_names[0]);
        // Each signature a few hours to days after the one before.
        let mut times = Vec::with_capacity(3);
        let mut t = created;
        for _ in 0..3 {
            t += 3_600_000 + mix.below(3 * DAY as u64) as i64;
            times.push(t);
        }
        let ended = match state {
            WorkflowState::InProgress => None,
            WorkflowState::Completed => Some(times[2]),
            WorkflowState::Declined => Some(times[signed]),
            _ => Some(created + 30 * DAY),
        };
        let current_order = (signed + 1).min(3) as i64;
        let updated = ended.unwrap_or(if signed > 0 { times[signed - 1] } else { created });

        // The workflow's own chain.
        let target = format!("workflow:{workflow_id}");
        let mut seq = 0_i64;
        let mut prev = GENESIS_HASH.to_string();
        let mut event =
            |rows: &mut Rows, at: Millis, actor: &str, kind: WorkflowEventKind, target: String, detail: String| {
                seq += 1;
                let event = unlinked(at, actor, kind.as_str(), target, detail);
                prev = push_entry(rows, workflow_id, seq, std::mem::take(&mut prev), event);
            };
        event(
            &mut g.events,
            created,
            &plan.sender,
            WorkflowEventKind::WorkflowCreated,
            target.clone(),
            format!(r#"{{"name":"{name}","documents":[{}],"signatories":3}}"#, ids.document + 1),
        );
        for k in 0..3 {
            let who = format!("signatory:{}", ids.signatory + 1 + k as i64);
            if k <= signed {
                let notified_at = if k == 0 { created } else { times[k - 1] };
                event(
                    &mut g.events,
                    notified_at,
                    "system",
                    WorkflowEventKind::SignatoryNotified,
                    who.clone(),
                    "{}".into(),
                );
            }
            if k < signed {
                event(
                    &mut g.events,
                    times[k],
                    &who,
                    WorkflowEventKind::SignatorySigned,
                    who.clone(),
                    r#"{"method":"electronic"}"#.into(),
                );
            } else if k == signed && state == WorkflowState::Declined {
                event(
                    &mut g.events,
                    times[k],
                    &who,
                    WorkflowEventKind::SignatoryDeclined,
                    who.clone(),
                    r#"{"reason":"terms"}"#.into(),
                );
            }
        }
        if let Some(at) = ended
            && let Some(kind) = WorkflowEventKind::became(state)
        {
            event(&mut g.events, at, "system", kind, target.clone(), r#"{"reason":null}"#.into());
        }
        let event_seq = seq;
        let event_head = prev;

        g.workflows.push([
            V::I(workflow_id),
            V::I(tenant),
            V::T(name.clone()),
            V::T(reference.clone()),
            V::I(1),
            V::S(state.as_str()),
            V::O((state == WorkflowState::Declined).then(|| "terms".to_string())),
            V::I(current_order),
            V::S("{}"),
            V::I(created + 30 * DAY),
            V::S("[]"),
            V::T(plan.sender.clone()),
            V::I(event_seq),
            V::T(event_head),
            V::I(created),
            V::I(updated),
            V::N((state == WorkflowState::Completed).then_some(times[2])),
            V::N(ended),
        ]);
        ids.document += 1;
        g.documents.push([
            V::I(ids.document),
            V::I(tenant),
            V::I(workflow_id),
            V::I(0),
            V::T(format!("{}.pdf", reference.replace('/', "-"))),
            V::T(reference.clone()),
            V::S(DocumentState::Active.as_str()),
            V::T(plan.blob_key.clone()),
            V::T(plan.blob_sha256.clone()),
            V::I(plan.blob_size),
            V::I(1),
            V::T(plan.blob_key.clone()),
            V::T(plan.blob_sha256.clone()),
            V::I(signed as i64),
            V::T(plan.sender.clone()),
            V::I(created),
            V::I(updated),
        ]);
        for (k, signer) in signer_names.iter().enumerate() {
            ids.signatory += 1;
            let notified_at = if k == 0 { created } else { times[k - 1] };
            let (signatory_state, notified, signed_at, reason) = if k < signed {
                (SignatoryState::Signed, Some(notified_at), Some(times[k]), None)
            } else if k == signed && state == WorkflowState::Declined {
                (SignatoryState::Declined, Some(notified_at), None, Some("terms".to_string()))
            } else if k == signed {
                (SignatoryState::Notified, Some(notified_at), None, None)
            } else {
                (SignatoryState::Pending, None, None, None)
            };
            let email = format!(
                "{}.{}{}@{}",
                signer.split(' ').next().unwrap_or("signer").to_lowercase(),
                signer.rsplit(' ').next().unwrap_or("x").to_lowercase().replace('\'', ""),
                i % 1000,
                ["example.in", "mail.example", "example.com"][k]
            );
            g.signatories.push([
                V::I(ids.signatory),
                V::I(tenant),
                V::I(workflow_id),
                V::I(1),
                V::T(email),
                V::T(signer.clone()),
                V::I(k as i64 + 1),
                V::S(signatory_state.as_str()),
                V::I(created + 30 * DAY),
                V::T(format!(r#"{{"slot":{k}}}"#)),
                V::O(reason),
                V::O(signed_at.map(|_| "electronic".to_string())),
                V::N(notified),
                V::N(signed_at.map(|t| t - 60_000)),
                V::N(signed_at),
                V::I(created),
                V::I(signed_at.unwrap_or(created)),
            ]);
        }
        // The tenant's audit log: the workflow's story, spread from its creation to its end.
        let last = ended.unwrap_or(updated).max(created);
        let n = i64::from(plan.audit_per_workflow);
        for a in 0..n {
            head.seq += 1;
            let at = created + (last - created) * a / n.max(1);
            let action = AUDIT_ACTIONS[a as usize % AUDIT_ACTIONS.len()];
            let actor = if action.starts_with("signatory.") { "system" } else { plan.sender.as_str() };
            let event = unlinked(at, actor, action, target.clone(), format!(r#"{{"reference":"{reference}"}}"#));
            head.hash = push_entry(&mut g.audit, tenant, head.seq, std::mem::take(&mut head.hash), event);
        }
    }
    g
}

impl Store {
    /// **Benchmarks and tests only** (see the module): seeds `plan.workflows` workflows into
    /// the tenant, calling `progress` with the running count after each transaction.
    pub async fn bench_seed_workflows(
        &self,
        tenant_id: TenantId,
        plan: &SeedPlan,
        mut progress: impl FnMut(u64),
    ) -> Result<Seeded> {
        let tenant = tenant_id.get();
        // Audit events waiting to be linked (PostgreSQL) go in first: the seeded ones follow.
        self.link_audit(tenant_id).await?;
        let mut done = Seeded::default();
        let per_tx = BATCH * BATCHES_PER_TRANSACTION;
        let anonymous = self.backend() == crate::Backend::Sqlite;
        let mut from = 0;
        while from < plan.workflows {
            let to = (from + per_tx).min(plan.workflows);
            on_db!(self, pool => {
                let mut tx = pool.begin().await.map_err(db_err)?;
                // The tenant row's lock (PostgreSQL) or the write lock (SQLite) first.
                let (seq, hash): (i64, String) = sqlx::query_as(
                    "UPDATE tenants SET audit_seq = audit_seq WHERE id = $1 RETURNING audit_seq, audit_head",
                )
                .bind(tenant)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                let mut head = AuditHead { seq, hash };
                let (workflow, document, signatory): (i64, i64, i64) = sqlx::query_as(
                    "SELECT (SELECT COALESCE(MAX(id), 0) FROM workflows), (SELECT COALESCE(MAX(id), 0) FROM documents), \
                     (SELECT COALESCE(MAX(id), 0) FROM signatories)",
                )
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                let mut ids = NextIds { workflow, document, signatory };
                let mut batch = from;
                while batch < to {
                    let end = (batch + BATCH).min(to);
                    let g = generate(tenant, plan, batch, end, &mut ids, &mut head);
                    insert_rows!(tx, &g.workflows, anonymous);
                    insert_rows!(tx, &g.documents, anonymous);
                    insert_rows!(tx, &g.signatories, anonymous);
                    insert_rows!(tx, &g.events, anonymous);
                    insert_rows!(tx, &g.audit, anonymous);
                    done.workflows += end - batch;
                    done.documents += (g.documents.values.len() / DOCUMENT_COLS.len()) as u64;
                    done.signatories += (g.signatories.values.len() / SIGNATORY_COLS.len()) as u64;
                    done.workflow_events += (g.events.values.len() / EVENT_COLS.len()) as u64;
                    done.audit_events += (g.audit.values.len() / AUDIT_COLS.len()) as u64;
                    batch = end;
                }
                sqlx::query("UPDATE tenants SET audit_seq = $2, audit_head = $3 WHERE id = $1")
                    .bind(tenant)
                    .bind(head.seq)
                    .bind(&head.hash)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                tx.commit().await.map_err(db_err)?;
            });
            from = to;
            progress(done.workflows);
        }
        // PostgreSQL's identity sequences do not follow explicit ids; SQLite's AUTOINCREMENT does.
        if let crate::Db::Postgres(pool) = &self.db {
            for table in ["workflows", "documents", "signatories"] {
                let sql = format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT COALESCE(MAX(id), 1) FROM {table}))"
                );
                sqlx::query(sqlx::AssertSqlSafe(sql)).execute(pool).await.map_err(db_err)?;
            }
        }
        Ok(done)
    }

    /// **Benchmarks only**: the database's size in bytes (SQLite: pages × page size, the WAL
    /// checkpointed first; PostgreSQL: `pg_database_size`).
    pub async fn bench_database_size(&self) -> Result<i64> {
        match &self.db {
            crate::Db::Sqlite(pool) => {
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(pool).await.map_err(db_err)?;
                let (pages,): (i64,) = sqlx::query_as("PRAGMA page_count").fetch_one(pool).await.map_err(db_err)?;
                let (size,): (i64,) = sqlx::query_as("PRAGMA page_size").fetch_one(pool).await.map_err(db_err)?;
                Ok(pages * size)
            }
            crate::Db::Postgres(pool) => {
                let (size,): (i64,) = sqlx::query_as("SELECT pg_database_size(current_database())")
                    .fetch_one(pool)
                    .await
                    .map_err(db_err)?;
                Ok(size)
            }
        }
    }
}
