#!/usr/bin/env bash
# Issue 5 benchmark: complete workflows per second (upload, initiate with three sequential
# signatories, three typed signatures through the signer page's form, download the final PDF)
# on SQLite and PostgreSQL, with the signing engine's raw rate (`signet bench sign`) in the
# same run for comparison.
#   usage: scripts/bench-workflows.sh [seconds-per-run] [concurrency]   (defaults 10, 16)
#   SIGNET_BIN=path runs that binary instead of building this checkout (to compare two builds).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10}"
CONCURRENCY="${2:-16}"
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
wait_up() { for _ in $(seq 1 100); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done; echo "$1 did not answer" >&2; exit 1; }
json_get() { python3 -c 'import json,sys;print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

python3 -c "from reportlab.pdfgen import canvas;c=canvas.Canvas('$WORK/in.pdf');c.drawString(72,720,'Service agreement');c.save()"

bench_backend() { # name [database-url]
  local dir="$WORK/$1" port tenant
  port=$(free_port); mkdir -p "$dir"
  SIGNET_LOG=warn "$BIN" serve --data-dir "$dir" --listen "127.0.0.1:$port" ${2:+--database-url "$2"} >/dev/null 2>&1 &
  PIDS+=($!)
  wait_up "http://127.0.0.1:$port/readyz"
  tenant=$("$BIN" tenant create --name Bench --admin-email "bench-$1-$RANDOM@example.test" --data-dir "$dir" ${2:+--database-url "$2"})
  echo "$1 workflows: $("$BIN" bench workflows --url "http://127.0.0.1:$port" --pdf "$WORK/in.pdf" \
    --client-id "$(json_get "$tenant" client_id)" --client-secret "$(json_get "$tenant" client_secret)" \
    --concurrency "$CONCURRENCY" --duration "$DURATION")"
}

bench_backend sqlite
PG_DB="bench_wf_$$_$RANDOM"
psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null
bench_backend postgres "${PG_ADMIN%/*}/$PG_DB"
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done

echo "signing engine alone (the same visible B-B signature, all cores):"
"$BIN" bench sign --count 300 --big-mb 0 --skip-pyhanko --openssl-seconds 2 | grep -iE "signet|openssl|docs/s|signs/s" | head -8
