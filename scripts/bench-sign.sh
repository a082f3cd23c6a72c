#!/usr/bin/env bash
# Issue 3 benchmark: builds the release binary and runs `signet bench sign` (500 one-page PDFs
# signed B-B RSA-2048 visible by signet / pyHanko / openssl speed, and a 100 MB PDF against
# sha256sum). Extra arguments go to `signet bench sign` (e.g. --count 100 --big-mb 0).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
cargo build --release -p signet
exec "$target/release/signet" bench sign "$@"
