#!/usr/bin/env bash
# Issue 38: many instances through faults. Three `signet serve` instances behind HAProxy on one
# PostgreSQL database (created for the run, dropped after) and one S3 server (moto behind a
# proxy that can cut it off), under a mixed load through HAProxy, while instances are killed
# with SIGKILL and restarted, PostgreSQL is restarted (SIGNET_FAULT_PG_RESTART=1) or cut off,
# and S3 is unreachable for 30 s. Then every workflow, job, webhook and final PDF is checked
# (scripts/fault_run.py says what exactly). Prints a summary; exits non-zero on a violation.
#   usage: scripts/fault-run.sh [seconds]   (default 600)
#   SIGNET_BIN=path runs that binary instead of building this checkout (debug build);
#   SIGNET_FAULT_WORKERS sets the number of load workers (default 6).
# Exits 0 with a SKIPPED message when PostgreSQL, haproxy, moto_server or pdfsig is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-600}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
PG_ADMIN="${SIGNET_TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/test}"
skip() { echo "== fault run SKIPPED: $1"; exit 0; }
for tool in haproxy moto_server pdfsig psql; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (scripts/install-test-deps.sh installs it)"
done
psql "$PG_ADMIN" -XAtqc 'SELECT 1' >/dev/null 2>&1 || skip "PostgreSQL does not answer at $PG_ADMIN"
if [ -z "${SIGNET_BIN:-}" ]; then cargo build -q -p signet --bin signet; fi
BIN="${SIGNET_BIN:-$CARGO_TARGET_DIR/debug/signet}"
exec python3 scripts/fault_run.py --seconds "$SECONDS_TO_RUN" --bin "$BIN" \
  --workers "${SIGNET_FAULT_WORKERS:-6}" --postgres "$PG_ADMIN" ${SIGNET_FAULT_KEEP:+--keep}
