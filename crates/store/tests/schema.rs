//! The SQLite and PostgreSQL migration trees must describe one schema: both are migrated into
//! fresh databases, each database's catalogue is read back into the same plain description
//! (tables, columns, keys, indexes, foreign keys), and the two descriptions must be equal.
//! The description normalises only what the backends spell differently for the same intent;
//! each normalisation says why.

mod support;

use std::collections::BTreeSet;

use signet_domain::workflow::{DocumentState, SignatoryState, WorkflowState};
use signet_store::Backend;
use sqlx::{PgPool, SqlitePool};
use support::TestDb;

/// One fact about the schema per line, e.g. `column jobs.run_at int not null`.
type Schema = BTreeSet<String>;

/// sqlx's own bookkeeping, which it creates differently per backend.
const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgres_migrations_describe_the_same_schema() {
    let db = migrated().await;
    let from_sqlite = sqlite_schema(&db.sqlite).await;
    let from_postgres = postgres_schema(&db.postgres).await;
    // Every kind of fact was read (an empty catalogue query would make both sides agree).
    for kind in ["table ", "column ", "primary key ", "unique ", "index ", "unique index ", "foreign key "] {
        assert!(from_sqlite.iter().any(|fact| fact.starts_with(kind)), "no `{kind}` read from SQLite");
    }
    let only_sqlite: Vec<&String> = from_sqlite.difference(&from_postgres).collect();
    let only_postgres: Vec<&String> = from_postgres.difference(&from_sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "the migration trees differ:\n  only in SQLite:\n    {}\n  only in PostgreSQL:\n    {}",
        lines(&only_sqlite),
        lines(&only_postgres),
    );
}

/// The CHECK constraints on the state columns allow exactly the states the domain knows, on
/// both backends (the store writes `State::as_str()`, so a state missing here would fail only
/// when first reached).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_columns_allow_exactly_the_domain_states() {
    let db = migrated().await;
    let expected = [
        ("workflows", WorkflowState::ALL.iter().map(|s| s.as_str()).collect::<BTreeSet<_>>()),
        ("signatories", SignatoryState::ALL.iter().map(|s| s.as_str()).collect()),
        ("documents", DocumentState::ALL.iter().map(|s| s.as_str()).collect()),
        ("stamps", signet_domain::stamp::StampState::ALL.iter().map(|s| s.as_str()).collect()),
    ];
    for (table, states) in expected {
        let from_sqlite = sqlite_state_check(&db.sqlite, table).await;
        let from_postgres = postgres_state_check(&db.postgres, table).await;
        let states: BTreeSet<String> = states.into_iter().map(str::to_string).collect();
        assert_eq!(from_sqlite, states, "SQLite's check on {table}.state");
        assert_eq!(from_postgres, states, "PostgreSQL's check on {table}.state");
    }
}

/// Both backends' databases, migrated, with pools for reading their catalogues.
struct Migrated {
    sqlite: SqlitePool,
    postgres: PgPool,
    // Holds the SQLite file's folder for as long as the pools are used.
    _databases: (TestDb, TestDb),
}

async fn migrated() -> Migrated {
    let sqlite_db = TestDb::new(Backend::Sqlite).await;
    let postgres_db = TestDb::new(Backend::Postgres).await;
    sqlite_db.open().await.close().await;
    postgres_db.open().await.close().await;
    let sqlite = SqlitePool::connect(&sqlite_db.url).await.expect("sqlite");
    let postgres = PgPool::connect(&postgres_db.url).await.expect("postgres");
    Migrated { sqlite, postgres, _databases: (sqlite_db, postgres_db) }
}

fn lines(facts: &[&String]) -> String {
    if facts.is_empty() {
        "(none)".to_string()
    } else {
        facts.iter().map(|f| f.as_str()).collect::<Vec<_>>().join("\n    ")
    }
}

/// The backends' names for one kind of value. SQLite has storage classes rather than sized
/// types (an INTEGER holds 64 bits, as PostgreSQL's BIGINT does), so sizes are not compared.
fn normal_type(declared: &str) -> String {
    match declared.to_ascii_lowercase().as_str() {
        "integer" | "int" | "bigint" | "smallint" => "int".into(),
        "text" | "character varying" | "varchar" => "text".into(),
        "blob" | "bytea" => "bytes".into(),
        "boolean" | "bool" => "bool".into(),
        // SQLite's REAL is an 8-byte float, as PostgreSQL's DOUBLE PRECISION is.
        "real" | "double precision" => "float".into(),
        other => format!("unmapped type {other}"),
    }
}

/// Defaults as comparable text: PostgreSQL answers `false` for SQLite's `FALSE` and adds casts
/// such as `'x'::text`.
fn normal_default(default: Option<&str>) -> String {
    match default {
        None => String::new(),
        Some(text) => {
            let text = text.split("::").next().unwrap_or(text).to_ascii_lowercase();
            format!(" default {text}")
        }
    }
}

fn column_fact(table: &str, name: &str, kind: &str, not_null: bool, generated: bool, default: Option<&str>) -> String {
    let null = if not_null { "not null" } else { "null" };
    let generated = if generated { " generated" } else { "" };
    format!("column {table}.{name} {} {null}{generated}{}", normal_type(kind), normal_default(default))
}

/// An index's key list and predicate as comparable text: lower case, no spaces, and without
/// the parentheses PostgreSQL adds around a predicate.
fn normal_expression(text: &str) -> String {
    let mut text: String = text.to_ascii_lowercase().chars().filter(|c| !c.is_whitespace()).collect();
    while text.starts_with('(') && text.ends_with(')') && balanced(&text[1..text.len() - 1]) {
        text = text[1..text.len() - 1].to_string();
    }
    text
}

fn balanced(text: &str) -> bool {
    let mut depth = 0_i32;
    for c in text.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Reads `CREATE [UNIQUE] INDEX name ON table [USING method] (keys) [WHERE predicate]`, as
/// SQLite keeps it in `sqlite_master` and PostgreSQL answers it in `pg_indexes`.
fn index_fact(table: &str, name: &str, definition: &str) -> String {
    let unique = if definition.to_ascii_uppercase().starts_with("CREATE UNIQUE") { "unique " } else { "" };
    let (body, predicate) = match definition.find(" WHERE ") {
        Some(at) => (&definition[..at], Some(&definition[at + " WHERE ".len()..])),
        None => (definition, None),
    };
    let keys = body.find('(').map(|at| &body[at..]).unwrap_or("?");
    let predicate = predicate.map(|p| format!(" where {}", normal_expression(p))).unwrap_or_default();
    format!("{unique}index {name} on {table} ({}){predicate}", normal_expression(keys))
}

async fn sqlite_schema(pool: &SqlitePool) -> Schema {
    let tables: Vec<(String, String)> = sqlx::query_as(
        // The search's FTS5 tables (migration 0051) and their shadow tables are SQLite's own
        // substring index, which PostgreSQL keeps as trigram GIN indexes (left out there).
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> $1 \
         AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND NOT EXISTS (SELECT 1 FROM sqlite_master v \
         WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%' AND sqlite_master.name LIKE v.name || '\\_%' ESCAPE '\\')",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("tables");
    let mut schema = Schema::new();
    for (table, sql) in &tables {
        schema.insert(format!("table {table}"));
        sqlite_columns(pool, table, sql, &mut schema).await;
        sqlite_unique_constraints(pool, table, &mut schema).await;
        sqlite_foreign_keys(pool, table, &mut schema).await;
    }
    let indexes: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("indexes");
    schema.extend(indexes.iter().map(|(table, name, sql)| index_fact(table, name, sql)));
    schema
}

async fn sqlite_columns(pool: &SqlitePool, table: &str, create_sql: &str, schema: &mut Schema) {
    let columns: Vec<(String, String, i64, Option<String>, i64)> =
        sqlx::query_as("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info($1) ORDER BY cid")
            .bind(table)
            .fetch_all(pool)
            .await
            .expect("columns");
    let key_columns = columns.iter().filter(|c| c.4 > 0).count();
    let mut key: Vec<(i64, &str)> = Vec::new();
    for (name, kind, not_null, default, pk) in &columns {
        // A lone INTEGER PRIMARY KEY is the rowid: never NULL, though SQLite reports no
        // NOT NULL; with AUTOINCREMENT it is what PostgreSQL calls an identity column.
        let rowid = *pk > 0 && key_columns == 1 && kind.eq_ignore_ascii_case("INTEGER");
        let generated = rowid && create_sql.to_ascii_uppercase().contains("AUTOINCREMENT");
        schema.insert(column_fact(table, name, kind, *not_null == 1 || rowid, generated, default.as_deref()));
        if *pk > 0 {
            key.push((*pk, name));
        }
    }
    key.sort_unstable();
    if !key.is_empty() {
        let names: Vec<&str> = key.iter().map(|(_, name)| *name).collect();
        schema.insert(format!("primary key {table} ({})", names.join(", ")));
    }
}

/// UNIQUE constraints (the indexes SQLite creates for them are named `sqlite_autoindex_*`,
/// PostgreSQL's `*_key`: so they are compared by their columns, not their names).
async fn sqlite_unique_constraints(pool: &SqlitePool, table: &str, schema: &mut Schema) {
    let indexes: Vec<(String,)> = sqlx::query_as("SELECT name FROM pragma_index_list($1) WHERE origin = 'u'")
        .bind(table)
        .fetch_all(pool)
        .await
        .expect("index list");
    for (index,) in indexes {
        let columns: Vec<(String,)> = sqlx::query_as("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
            .bind(&index)
            .fetch_all(pool)
            .await
            .expect("index columns");
        let names: Vec<String> = columns.into_iter().map(|(name,)| name).collect();
        schema.insert(format!("unique {table} ({})", names.join(", ")));
    }
}

async fn sqlite_foreign_keys(pool: &SqlitePool, table: &str, schema: &mut Schema) {
    let keys: Vec<(i64, String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list($1) ORDER BY id, seq",
    )
    .bind(table)
    .fetch_all(pool)
    .await
    .expect("foreign keys");
    let mut ids: Vec<i64> = keys.iter().map(|k| k.0).collect();
    ids.dedup();
    for id in ids {
        let parts: Vec<_> = keys.iter().filter(|k| k.0 == id).collect();
        let from: Vec<&str> = parts.iter().map(|k| k.2.as_str()).collect();
        // A REFERENCES without columns means the parent's primary key; ours all name `id`.
        let to: Vec<&str> = parts.iter().map(|k| k.3.as_deref().unwrap_or("id")).collect();
        let parent = &parts[0].1;
        let on_delete = parts[0].4.to_ascii_lowercase();
        schema.insert(format!(
            "foreign key {table} ({}) -> {parent} ({}) on delete {on_delete}",
            from.join(", "),
            to.join(", ")
        ));
    }
}

async fn postgres_schema(pool: &PgPool) -> Schema {
    let mut schema = Schema::new();
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("tables");
    schema.extend(tables.iter().map(|(table,)| format!("table {table}")));
    postgres_columns(pool, &mut schema).await;
    postgres_keys(pool, &mut schema).await;
    postgres_foreign_keys(pool, &mut schema).await;
    // Indexes that back a constraint are compared as the constraint (see `postgres_keys`);
    // the search's trigram indexes (migration 0051) are SQLite's FTS5 tables, left out there.
    let indexes: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT tablename::text, indexname::text, indexdef FROM pg_indexes \
         WHERE schemaname = 'public' AND tablename <> $1 \
         AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u')) \
         AND indexdef NOT LIKE '% USING gin %gin_trgm_ops%'",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("indexes");
    for (table, name, definition) in &indexes {
        // pg_indexes qualifies the table and names the access method, which SQLite has not,
        // and writes a predicate's LIKE as its operator and its literals with their type.
        let definition = definition
            .replace(" public.", " ")
            .replace(" USING btree", "")
            .replace(" !~~ ", " NOT LIKE ")
            .replace("::text", "");
        schema.insert(index_fact(table, name, &definition));
    }
    schema
}

async fn postgres_columns(pool: &PgPool, schema: &mut Schema) {
    let columns: Vec<(String, String, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text, is_identity::text, \
         column_default::text FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("columns");
    for (table, name, kind, nullable, identity, default) in &columns {
        schema.insert(column_fact(table, name, kind, nullable == "NO", identity == "YES", default.as_deref()));
    }
}

async fn postgres_keys(pool: &PgPool, schema: &mut Schema) {
    let keys: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT tc.table_name::text, tc.constraint_type::text, \
         string_agg(kcu.column_name::text, ', ' ORDER BY kcu.ordinal_position) \
         FROM information_schema.table_constraints tc \
         JOIN information_schema.key_column_usage kcu \
           ON kcu.constraint_schema = tc.constraint_schema AND kcu.constraint_name = tc.constraint_name \
         WHERE tc.table_schema = 'public' AND tc.table_name <> $1 AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE') \
         GROUP BY tc.table_name, tc.constraint_type, tc.constraint_name",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(pool)
    .await
    .expect("keys");
    for (table, kind, columns) in &keys {
        let kind = if kind == "PRIMARY KEY" { "primary key" } else { "unique" };
        schema.insert(format!("{kind} {table} ({columns})"));
    }
}

async fn postgres_foreign_keys(pool: &PgPool, schema: &mut Schema) {
    let keys: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT child.relname::text, parent.relname::text, \
         string_agg(ca.attname::text, ', ' ORDER BY k.ord), string_agg(pa.attname::text, ', ' ORDER BY k.ord), \
         CASE c.confdeltype WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict' WHEN 'c' THEN 'cascade' \
           WHEN 'n' THEN 'set null' ELSE 'set default' END \
         FROM pg_constraint c \
         JOIN pg_class child ON child.oid = c.conrelid \
         JOIN pg_class parent ON parent.oid = c.confrelid \
         JOIN pg_namespace n ON n.oid = child.relnamespace \
         CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord) \
         JOIN pg_attribute ca ON ca.attrelid = c.conrelid AND ca.attnum = k.attnum \
         JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.fattnum \
         WHERE c.contype = 'f' AND n.nspname = 'public' \
         GROUP BY c.oid, child.relname, parent.relname, c.confdeltype",
    )
    .fetch_all(pool)
    .await
    .expect("foreign keys");
    for (table, parent, from, to, on_delete) in &keys {
        schema.insert(format!("foreign key {table} ({from}) -> {parent} ({to}) on delete {on_delete}"));
    }
}

/// The quoted words of a CHECK constraint's text: `IN ('a', 'b')` or `= ANY (ARRAY['a'::text, ...])`.
fn quoted_words(text: &str) -> BTreeSet<String> {
    text.split('\'').skip(1).step_by(2).map(str::to_string).collect()
}

async fn sqlite_state_check(pool: &SqlitePool, table: &str) -> BTreeSet<String> {
    let (sql,): (String,) = sqlx::query_as("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1")
        .bind(table)
        .fetch_one(pool)
        .await
        .expect("table");
    let line = sql.lines().find(|line| line.trim_start().starts_with("state ")).expect("a state column");
    quoted_words(line)
}

async fn postgres_state_check(pool: &PgPool, table: &str) -> BTreeSet<String> {
    let (definition,): (String,) = sqlx::query_as(
        "SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid \
         WHERE c.contype = 'c' AND t.relname = $1 AND pg_get_constraintdef(c.oid) LIKE '%(state %'",
    )
    .bind(table)
    .fetch_one(pool)
    .await
    .expect("the state column's check");
    quoted_words(&definition)
}
