#!/usr/bin/env bash
# Issue 4 benchmark: gateway submissions/s (POST Index -> rendered signer page, 32 clients,
# legacy and modern), whole transactions/s (submit, typed signature, result), submissions/s
# while another address floods the gateway with bogus envelopes (issue 9), on SQLite and
# PostgreSQL, and `openssl speed` RSA private-key ops/s for the decryption limit, in one run.
#   usage: scripts/bench-gateway.sh [seconds-per-run]   (default 10)
#   SIGNET_PROFILE=dir also records a system-wide perf profile of each backend's modern
#   submissions run (scripts/profile.sh): dir/submit-<backend>.comm.txt and .symbols.txt.
#   SIGNET_GATEWAY_KEY_BITS=2048 for a 2048-bit gateway key (fresh data dirs are used anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${1:-10}"
BITS="${SIGNET_GATEWAY_KEY_BITS:-3072}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
PG_ADMIN="${SIGNET_TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/test}"
# SIGNET_BIN=path runs that binary instead of building this checkout (to compare two builds).
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
source scripts/profile.sh
json_get() { python3 -c 'import json,sys;print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

python3 -c "from reportlab.pdfgen import canvas;c=canvas.Canvas('$WORK/in.pdf');c.drawString(72,720,'Bench');c.save()"

start_signet() { # name [database-url]
  local dir="$WORK/$1" port tenant token
  port=$(free_port); mkdir -p "$dir"
  SIGNET_GATEWAY_KEY_BITS="$BITS" SIGNET_LOG=warn "$BIN" serve --data-dir "$dir" --listen "127.0.0.1:$port" ${2:+--database-url "$2"} >/dev/null 2>&1 &
  PIDS+=($!)
  wait_up "http://127.0.0.1:$port/readyz"
  tenant=$("$BIN" tenant create --name Bench --admin-email "bench-$1-$RANDOM@example.test" --data-dir "$dir" ${2:+--database-url "$2"})
  token=$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/auth/token" -d grant_type=client_credentials \
    -d "client_id=$(json_get "$tenant" client_id)" -d "client_secret=$(json_get "$tenant" client_secret)" | python3 -c 'import json,sys;print(json.load(sys.stdin)["access_token"])')
  AUTHTOKEN=$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/gateway/authtokens" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"label":"bench"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["authtoken"])')
  BASE="http://127.0.0.1:$port"
  python3 - "$WORK/in.pdf" "$AUTHTOKEN" >"$WORK/payload-$1.json" <<'PY'
import base64, json, sys
print(json.dumps({"Filetype": "PDF", "File": base64.b64encode(open(sys.argv[1], "rb").read()).decode(),
  "ReferenceNumber": "X", "Name": "Bench", "Authtoken": sys.argv[2], "SignatureType": "4", "SelectPage": "ALL",
  "SignaturePosition": "Bottom-Right", "Enablefontsignature": True, "SUrl": "https://erp.example.test/ok",
  "Furl": "https://erp.example.test/fail", "Curl": "https://erp.example.test/cancel"}))
PY
}

bench_backend() { # name [database-url]
  start_signet "$@"
  for profile in legacy modern; do
    if [ "$profile" = modern ]; then profile_start "submit-$1" "$DURATION"; fi
    echo "$1 submissions $profile: $("$BIN" gateway-client load --url "$BASE" --payload "$WORK/payload-$1.json" --profile "$profile" --concurrency 32 --spread-addresses --duration "$DURATION")"
    if [ "$profile" = modern ]; then profile_wait; fi
  done
  echo "$1 transactions modern: $("$BIN" gateway-client load --url "$BASE" --payload "$WORK/payload-$1.json" --profile modern --concurrency 32 --spread-addresses --duration "$DURATION" --envelopes 1500 --full)"
  # The same submissions while 32 clients from another address flood the gateway with
  # 7-zip bombs under bogus Authtokens (issue 9: unauthenticated traffic must cost little).
  echo "$1 submissions modern under flood: $("$BIN" gateway-client load --url "$BASE" --payload "$WORK/payload-$1.json" --profile modern --concurrency 32 --spread-addresses --duration "$DURATION" --flood 32 --flood-from 127.0.0.2)"
}

bench_backend sqlite
PG_DB="bench_gw_$$_$RANDOM"
psql "$PG_ADMIN" -qc "CREATE DATABASE $PG_DB" >/dev/null
bench_backend postgres "${PG_ADMIN%/*}/$PG_DB"

echo "openssl speed (RSA private-key ops/s, 2 processes):"
openssl speed -seconds 3 -multi 2 rsa2048 rsa3072 2>/dev/null | grep -E '^rsa +(2048|3072)' | tee "$WORK/rsa.txt"
echo "gateway key: $BITS bits; ratio = submissions/s / RSA sign(=decrypt)/s for rsa$BITS from the lines above"
