#!/usr/bin/env bash
# Issue 2 benchmark: authenticated GET /api/v1/departments/{id} and POST /api/v1/departments
# under load from wrk (a separate process, 64 connections), on SQLite and on PostgreSQL, side
# by side with a bare axum handler returning a constant, all in one run.
#   usage: scripts/bench-api.sh [seconds-per-run]   (default 10)
#   SIGNET_BENCH_PG_SOCKET=dir connects Signet to PostgreSQL through the Unix socket in dir.
#   SIGNET_PROFILE=dir also records a system-wide perf profile of each GET and POST run
#   (scripts/profile.sh): dir/<run>.comm.txt and dir/<run>.symbols.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10}"
CONNECTIONS=64
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
PG_ADMIN="${SIGNET_TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/test}"
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }

# SIGNET_BIN=path runs that binary instead of building this checkout (to compare two builds).
if [ -z "${SIGNET_BIN:-}" ]; then cargo build --release -q -p signet --bin signet; fi
BIN="${SIGNET_BIN:-$CARGO_TARGET_DIR/release/signet}"
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 100); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done; echo "$1 did not answer" >&2; exit 1; }

# wrk's summary -> "requests/s p50 p99"
run_wrk() {
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@")
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "$rps $p50 $p99 ${non2xx:-0}"
}

source scripts/profile.sh

start_signet() { # name database-url
  local dir="$WORK/$1" port
  port=$(free_port)
  mkdir -p "$dir"
  SIGNET_LOG=warn "$BIN" serve --data-dir "$dir" --listen "127.0.0.1:$port" ${2:+--database-url "$2"} >/dev/null 2>&1 &
  PIDS+=($!)
  wait_up "http://127.0.0.1:$port/readyz"
  local tenant client secret
  tenant=$("$BIN" tenant create --name Bench --admin-email "bench-$1-$RANDOM@example.test" --data-dir "$dir" ${2:+--database-url "$2"})
  client=$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["client_id"])' "$tenant")
  secret=$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["client_secret"])' "$tenant")
  TOKEN=$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/auth/token" -d grant_type=client_credentials \
    -d "client_id=$client" -d "client_secret=$secret" | python3 -c 'import json,sys;print(json.load(sys.stdin)["access_token"])')
  DEPT=$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/departments" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d '{"departmentName":"Legal"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["departmentID"])')
  BASE="http://127.0.0.1:$port"
  export TOKEN
}

port=$(free_port)
"$BIN" bench bare-axum --listen "127.0.0.1:$port" >/dev/null &
PIDS+=($!)
wait_up "http://127.0.0.1:$port/"
read -r bare_rps bare_p50 bare_p99 _ < <(run_wrk "http://127.0.0.1:$port/")

printf '%-34s %12s %10s %10s %8s\n' "run ($CONNECTIONS connections, ${DURATION}s)" "requests/s" "p50" "p99" "non-2xx"
printf '%-34s %12s %10s %10s %8s\n' "bare axum constant" "$bare_rps" "$bare_p50" "$bare_p99" 0

PG_DB="signet_bench_$$"
psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null
PG_URL="${PG_ADMIN%/*}/$PG_DB"
# SIGNET_BENCH_PG_SOCKET=/var/run/postgresql: Signet talks to PostgreSQL over its Unix socket
# instead of TCP on loopback.
if [ -n "${SIGNET_BENCH_PG_SOCKET:-}" ]; then PG_URL="postgres://postgres@localhost/$PG_DB?host=$SIGNET_BENCH_PG_SOCKET"; fi
for backend in sqlite postgres; do
  if [ "$backend" = postgres ]; then start_signet pg "$PG_URL"; else start_signet sqlite ""; fi
  profile_start "get-$backend" "$DURATION"
  read -r rps p50 p99 bad < <(run_wrk -H "Authorization: Bearer $TOKEN" "$BASE/api/v1/departments/$DEPT")
  profile_wait
  ratio=$(python3 -c "print(f'{float($rps)/float($bare_rps)*100:.0f}%')")
  printf '%-34s %12s %10s %10s %8s   (%s of bare)\n' "GET department, $backend" "$rps" "$p50" "$p99" "$bad" "$ratio"
  profile_start "post-$backend" "$DURATION"
  read -r rps p50 p99 bad < <(run_wrk -s bench/create_department.lua "$BASE")
  profile_wait
  printf '%-34s %12s %10s %10s %8s\n' "POST department, $backend" "$rps" "$p50" "$p99" "$bad"
  kill "${PIDS[-1]}" 2>/dev/null || true
done
psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
