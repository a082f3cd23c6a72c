#!/usr/bin/env bash
# Runs every check and test, on SQLite and PostgreSQL, installing what they need first.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
export SIGNET_TEST_POSTGRES_URL="${SIGNET_TEST_POSTGRES_URL:-postgres://postgres:postgres@127.0.0.1:5432/test}"

bash scripts/install-test-deps.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== tests (SQLite and PostgreSQL)"
cargo nextest run --workspace --no-fail-fast "$@"
echo "== fuzzing (20 s per target on the committed corpus)"
# (grep reads all of rustup's output: with pipefail, `grep -q` could make the pipe fail.)
if rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then
    bash scripts/fuzz.sh 20
else
    echo "== fuzzing SKIPPED: no nightly toolchain (rustup toolchain install nightly; see scripts/fuzz.sh)"
fi
