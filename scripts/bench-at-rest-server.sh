#!/usr/bin/env bash
# Issue 34 benchmark, through the server: with `blob_encryption` off beside on, in one run,
#  (1) a complete workflow over a 100 MB PDF (upload, three signatures through the signer
#      page, download of the signed PDF: `signet bench workflows --concurrency 1`), on SQLite;
#  (2) `scripts/bench-api.sh` (authenticated reads and writes on both backends).
# The modes alternate, ROUNDS times each, each on a fresh data folder; the best round counts.
#   usage: scripts/bench-at-rest-server.sh [MB] [ROUNDS] [API-SECONDS]   (defaults 100, 2, 10)
#   SIGNET_BIN=path runs that binary instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
MB="${1:-100}"
ROUNDS="${2:-2}"
API_SECONDS="${3:-10}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
if [ -z "${SIGNET_BIN:-}" ]; then cargo build --release -q -p signet --bin signet; fi
BIN="${SIGNET_BIN:-$CARGO_TARGET_DIR/release/signet}"
export SIGNET_BIN="$BIN"
WORK=$(mktemp -d)
PID=""
cleanup() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 1 300); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done; echo "$1 did not answer" >&2; exit 1; }
json_get() { python3 -c 'import json,sys;print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# A one-page PDF carrying MB of incompressible bytes in an unused stream (as a scanned annex).
python3 - "$WORK/big.pdf" "$MB" <<'EOF'
import os, sys
path, mb = sys.argv[1], int(sys.argv[2])
content = b"BT /F1 24 Tf 72 720 Td (Loan agreement with annexes) Tj ET"
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
    b"/Resources << /Font << /F1 5 0 R >> >> /PieceInfo << /Annex << /Data 6 0 R >> >> >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
]
with open(path, "wb") as out:
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    size = mb << 20
    offsets.append(out.tell())
    out.write(b"6 0 obj\n<< /Length %d >>\nstream\n" % size)
    left = size
    while left:
        chunk = os.urandom(min(left, 1 << 20))
        out.write(chunk)
        left -= len(chunk)
    out.write(b"\nendstream\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref))
EOF
echo "document: $(du -m "$WORK/big.pdf" | cut -f1) MB"

# One complete workflow over the big PDF with encryption $1; prints its seconds.
one_workflow() {
  local dir="$WORK/wf-$1-$RANDOM" port tenant report
  port=$(free_port); mkdir -p "$dir"
  SIGNET_BLOB_ENCRYPTION="$1" SIGNET_MAX_BODY_BYTES=$(( (MB + 20) * 1400000 )) SIGNET_LOG=warn \
    "$BIN" serve --data-dir "$dir" --listen "127.0.0.1:$port" >/dev/null 2>&1 &
  PID=$!
  wait_up "http://127.0.0.1:$port/readyz"
  tenant=$(SIGNET_BLOB_ENCRYPTION="$1" "$BIN" tenant create --name Bench --admin-email "b$RANDOM@example.test" --data-dir "$dir")
  report=$("$BIN" bench workflows --url "http://127.0.0.1:$port" --pdf "$WORK/big.pdf" --concurrency 1 --duration 1 \
    --client-id "$(json_get "$tenant" client_id)" --client-secret "$(json_get "$tenant" client_secret)")
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
  rm -rf "$dir"
  python3 -c '
import json, sys
r = json.loads(sys.argv[1])
if r["failed"] or not r["workflows_ok"]:
    sys.exit("the workflow failed: %s" % r["first_error"])
print(round(r["seconds"] / r["workflows_ok"], 2))' "$report"
}

best_off=""; best_on=""
for round in $(seq 1 "$ROUNDS"); do
  off=$(one_workflow false); on=$(one_workflow true)
  echo "round $round: 100 MB workflow in clear ${off} s, encrypted ${on} s"
  best_off=$(python3 -c "print(min(x for x in [float('$off'), float('${best_off:-inf}')]))")
  best_on=$(python3 -c "print(min(x for x in [float('$on'), float('${best_on:-inf}')]))")
done
echo "100 MB workflow, best of $ROUNDS: in clear ${best_off} s, encrypted ${best_on} s, encrypted / in clear = $(python3 -c "print(round($best_on/$best_off, 3))")"

for mode in false true; do
  echo "bench-api.sh with blob_encryption=$mode:"
  SIGNET_BLOB_ENCRYPTION="$mode" scripts/bench-api.sh "$API_SECONDS" | grep -E "GET|POST|req" | head -8
done
