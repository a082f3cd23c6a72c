#!/usr/bin/env bash
# Issue 32 benchmark: `signet verify` on a 500-page signed contract with a later revision (a
# comment on page 250, so the check of what later changes draw over runs too) beside
# `pyhanko sign validate` on the same file, with `farm-bench` (median wall time, peak memory,
# ratio pair by pair).
#   usage: scripts/bench-verify.sh [runs]   (default 5)
#   SIGNET_BIN=path runs that binary instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
if [ -z "${SIGNET_BIN:-}" ]; then cargo build --release -q -p signet --bin signet; fi
BIN="${SIGNET_BIN:-$CARGO_TARGET_DIR/release/signet}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

# 500 A4 pages of contract text (40 lines each), by reportlab.
python3 - <<'EOF'
from reportlab.pdfgen import canvas
c = canvas.Canvas("contract.pdf")
for page in range(1, 501):
    c.setFont("Helvetica", 10)
    for line in range(40):
        c.drawString(60, 780 - 18 * line, "Clause %d.%d: the borrower repays the loan in monthly instalments as agreed." % (page, line + 1))
    c.showPage()
c.save()
EOF
# A signer certificate from a throwaway CA, as a PKCS#12.
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 -subj "/CN=Bench CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout signer.key -out signer.csr -subj "/CN=Bench Signer" 2>/dev/null
printf "keyUsage=critical,digitalSignature,nonRepudiation\n" > ext.cnf
openssl x509 -req -in signer.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out signer.pem -days 30 -extfile ext.cnf 2>/dev/null
openssl pkcs12 -export -inkey signer.key -in signer.pem -certfile ca.pem -passout pass:bench -out signer.p12
"$BIN" sign pdf contract.pdf -o signed.pdf --p12 signer.p12 --password bench --visible >/dev/null
# A later revision by pypdf: a comment on page 250.
python3 - <<'EOF'
from pypdf import PdfWriter
from pypdf.annotations import FreeText
w = PdfWriter("signed.pdf", incremental=True)
w.add_annotation(page_number=249, annotation=FreeText(text="Seen", rect=(400, 20, 500, 40)))
w.write("commented.pdf")
EOF
ls -l commented.pdf | awk '{print "file: " $5 " bytes, 500 pages"}'
"$BIN" verify commented.pdf --trust ca.pem | head -20
farm-bench -n "$RUNS" --timeout 600 \
  --vs "pyhanko sign validate --no-revocation-check --trust ca.pem --trust-replace commented.pdf" \
  -- "$BIN" verify commented.pdf --trust ca.pem
