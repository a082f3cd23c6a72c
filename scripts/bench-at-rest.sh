#!/usr/bin/env bash
# Issue 34 benchmark: a 100 MB document written to and streamed back from the local blob store
# encrypted at rest beside in clear, in one run (release build of the blob crate's example).
#   usage: scripts/bench-at-rest.sh [MB] [ROUNDS]   (defaults 100 and 5)
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release -q -p signet-blob --example seal_bench -- "$@"
