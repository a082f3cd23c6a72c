#!/usr/bin/env bash
# Issue 15 benchmark: documents per second through a lot signed in one bulk job (SQLite, one
# server, release build) beside `signet sign pdf` on the same documents, in one run.
#   usage: scripts/bench-lot.sh [documents]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-200}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
cargo build --release -q -p signet --bin signet
BIN="$CARGO_TARGET_DIR/release/signet"
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
python3 -c "from reportlab.pdfgen import canvas;c=canvas.Canvas('$WORK/letter.pdf');c.drawString(72,720,'Sanction letter');c.save()"
python3 -c "
from PIL import Image, ImageDraw
img = Image.new('RGBA', (300, 100), (255, 255, 255, 0)); d = ImageDraw.Draw(img)
d.line([(10, 80), (80, 20), (150, 70), (290, 30)], fill=(20, 30, 90, 255), width=5); img.save('$WORK/signature.png')"
SIGNET_LOG=warn "$BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$port" >/dev/null 2>&1 &
PID=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
tenant=$("$BIN" tenant create --name Bench --admin-email bench@example.test --data-dir "$WORK/data")
get() { python3 -c 'import json,sys;print(json.loads(sys.argv[1])[sys.argv[2]])' "$tenant" "$1"; }
(cd "$WORK" && "$BIN" ca init ca --password pw >/dev/null)
SIGNET_BENCH_CLIENT_ID=$(get client_id) SIGNET_BENCH_CLIENT_SECRET=$(get client_secret) \
SIGNET_BENCH_PASSWORD=$(get admin_password) SIGNET_P12_PASSWORD=pw \
  "$BIN" bench lot --url "http://127.0.0.1:$port" --username bench@example.test \
    --pdf "$WORK/letter.pdf" --image "$WORK/signature.png" --count "$COUNT" --p12 "$WORK/ca/signer.p12"
