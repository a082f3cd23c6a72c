#!/usr/bin/env bash
# Issue 38, item 1: a large lender's data, on SQLite and PostgreSQL in one run. For each backend:
# `signet bench seed` (one organisation with N workflows, three signatories and ten audit events
# each, over five years, beside 99 small ones), then `signet serve` on that database and
# `signet bench lists` against it (the workflow list with each filter and the search, p50/p99;
# the audit trail's pages; the chain's verification beside sha256sum; an export of every
# workflow), the server's peak RSS, the database's size per workflow, and the plans of the hot
# queries.
#   usage: scripts/bench-scale.sh [workflows] [requests-per-case] [backends]
#          (defaults 100000, 200, "sqlite postgres")
#   SIGNET_BIN=path runs that binary instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
WORKFLOWS="${1:-100000}"
REQUESTS="${2:-200}"
BACKENDS="${3:-sqlite postgres}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
PG_ADMIN="${SIGNET_TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/test}"
if [ -z "${SIGNET_BIN:-}" ]; then cargo build --release -q -p signet --bin signet; fi
BIN="${SIGNET_BIN:-$CARGO_TARGET_DIR/release/signet}"
WORK=$(mktemp -d)
PIDS=()
PG_DB=""
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "$PG_DB" ] && psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 300); do curl -sf "$1" >/dev/null && return 0; sleep 0.2; done; echo "$1 did not answer" >&2; exit 1; }
json_get() { python3 -c 'import json,sys;print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
rss_mb() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }

# The hot queries as the store runs them (envelope.rs, lib.rs), for EXPLAIN; the search in its
# form before migration 0051 ("old search") and after.
hot_queries() { # tenant-id backend
  local t=$1 p="'%meena iyer%'"
  cat <<SQL
SELECT id FROM workflows WHERE tenant_id = $t AND state <> 'deleted' ORDER BY id DESC LIMIT 20 OFFSET 0;
SELECT COUNT(*) FROM workflows WHERE tenant_id = $t AND state <> 'deleted';
SELECT id FROM workflows WHERE tenant_id = $t AND state = 'declined' AND state <> 'deleted' ORDER BY id DESC LIMIT 20 OFFSET 0;
SELECT COUNT(*) FROM workflows WHERE tenant_id = $t AND state = 'declined' AND state <> 'deleted';
SELECT state, COUNT(*) FROM workflows WHERE tenant_id = $t AND state <> 'deleted' GROUP BY state;
SELECT seq FROM audit_log WHERE tenant_id = $t AND seq > 500000 ORDER BY seq LIMIT 100;
SELECT COUNT(*) /* old search */ FROM workflows WHERE tenant_id = $t AND state <> 'deleted' AND (lower(name) LIKE $p OR lower(coalesce(reference_no, '')) LIKE $p OR EXISTS (SELECT 1 FROM signatories s WHERE s.workflow_id = workflows.id AND (lower(s.name) LIKE $p OR lower(s.email) LIKE $p)));
SQL
  if [ "$2" = sqlite ]; then
    echo "SELECT COUNT(*) /* new search */ FROM workflows WHERE tenant_id = $t AND state <> 'deleted' AND +tenant_id = $t AND id IN (SELECT rowid FROM workflow_search WHERE workflow_search MATCH '\"meena iyer\"' AND tenant_id = $t UNION SELECT workflow_id FROM signatory_search WHERE signatory_search MATCH '\"meena iyer\"' AND tenant_id = $t) AND (lower(name) LIKE $p OR lower(coalesce(reference_no, '')) LIKE $p OR EXISTS (SELECT 1 FROM signatories s WHERE s.workflow_id = workflows.id AND (lower(s.name) LIKE $p OR lower(s.email) LIKE $p)));"
  else
    echo "SELECT COUNT(*) /* new search */ FROM workflows WHERE tenant_id = $t AND state <> 'deleted' AND id IN (SELECT id FROM workflows WHERE tenant_id = $t AND (lower(name) LIKE $p OR lower(coalesce(reference_no, '')) LIKE $p) UNION SELECT workflow_id FROM signatories WHERE tenant_id = $t AND (lower(name) LIKE $p OR lower(email) LIKE $p));"
  fi
}

bench_backend() { # name [database-url]
  local dir="$WORK/$1" port seeded tenant pid before after
  mkdir -p "$dir"
  echo "== $1: seeding $WORKFLOWS workflows"
  seeded=$(SIGNET_LOG=warn "$BIN" bench seed --workflows "$WORKFLOWS" --data-dir "$dir" ${2:+--database-url "$2"})
  echo "seed: $seeded"
  tenant=$(json_get "$seeded" tenant_id)
  port=$(free_port)
  SIGNET_LOG=warn "$BIN" serve --data-dir "$dir" --listen "127.0.0.1:$port" ${2:+--database-url "$2"} >"$dir/serve.log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  wait_up "http://127.0.0.1:$port/readyz"
  echo "== $1: plans of the hot queries (tenant $tenant)"
  if [ -z "${2:-}" ]; then
    hot_queries "$tenant" sqlite | while read -r q; do
      echo "-- $q"; sqlite3 "$dir/signet.db" "EXPLAIN QUERY PLAN $q"
      sqlite3 "$dir/signet.db" ".timer on" "$q" | tail -1
    done
  else
    psql "$2" -qc "VACUUM ANALYZE" >/dev/null
    hot_queries "$tenant" postgres | while read -r q; do echo "-- $q"; psql "$2" -Atc "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $q"; done
  fi
  echo "== $1: measurements ($REQUESTS requests a case)"
  before=$(rss_mb "$pid")
  "$BIN" bench lists --url "http://127.0.0.1:$port" --requests "$REQUESTS" --export \
    --client-id "$(json_get "$seeded" client_id)" --client-secret "$(json_get "$seeded" client_secret)"
  after=$(rss_mb "$pid")
  echo "{\"case\": \"server peak RSS\", \"before_mb\": $before, \"after_mb\": $after}"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

for backend in $BACKENDS; do
  case "$backend" in
    sqlite) bench_backend sqlite ;;
    postgres)
      PG_DB="bench_scale_$$_$RANDOM"
      psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null
      bench_backend postgres "${PG_ADMIN%/*}/$PG_DB"
      ;;
  esac
done
