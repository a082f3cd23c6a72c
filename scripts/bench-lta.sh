#!/usr/bin/env bash
# Issue 33 item 2 benchmark: renewals of long-term signatures per second (B-LTA: fresh DSS and a
# new document time-stamp) beside the raw time-stamp rate of the same local TSA (openssl ts
# behind crates/testkit/scripts/tsa_server.py), in one run; prints both and their ratio.
#   usage: scripts/bench-lta.sh [documents] [threads]   (default 200, one per core)
#   BIN=path/to/signet uses that binary instead of building a release one.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-200}"
THREADS="${2:-$(nproc)}"
if [ -z "${BIN:-}" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
  cargo build --release -q -p signet --bin signet
  BIN="$CARGO_TARGET_DIR/release/signet"
fi
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
python3 -c "from reportlab.pdfgen import canvas;c=canvas.Canvas('$WORK/loan.pdf');c.drawString(72,720,'Loan agreement');c.save()"
(cd "$WORK" && "$BIN" ca init ca --password pw >/dev/null)
python3 crates/testkit/scripts/tsa_server.py "$WORK/ca" >"$WORK/tsa.port" &
PID=$!
for _ in $(seq 1 100); do [ -s "$WORK/tsa.port" ] && break; sleep 0.1; done
port=$(head -1 "$WORK/tsa.port")
SIGNET_P12_PASSWORD=pw "$BIN" bench lta --tsa "http://127.0.0.1:$port/" --pdf "$WORK/loan.pdf" \
  --p12 "$WORK/ca/signer.p12" --crl "$WORK/ca/ca.crl" --documents "$COUNT" --concurrency "$THREADS"
