#!/usr/bin/env bash
# Fuzzes every target of fuzz/ (or the named ones) for SECONDS each, one target after the
# other, each as a single libFuzzer process (one job, one worker), niced.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, all targets)
#
# Needs the nightly toolchain; installs cargo-fuzz when missing. Each target runs on a copy of
# its committed seed corpus (fuzz/corpus/<target>) in fuzz/corpus-run/<target>, which keeps
# what the fuzzer finds between runs and is not committed. Builds go to
# $SIGNET_FUZZ_TARGET_DIR (default ~/.cache/signet-fuzz-target), so reruns are incremental.
# Exits non-zero when any target crashed, timed out or ran out of memory, after printing the
# reproducer (fuzz/artifacts/<target>/...) and the command to replay it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2
    exit 2
fi
shift || true

if ! rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then
    echo "fuzz: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
    exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    env -u CARGO_TARGET_DIR cargo install --locked cargo-fuzz
fi

export CARGO_TARGET_DIR="${SIGNET_FUZZ_TARGET_DIR:-$HOME/.cache/signet-fuzz-target}"
cd fuzz

all_targets=()
while IFS= read -r t; do all_targets+=("$t"); done < <(cargo +nightly fuzz list)
if [ "$#" -gt 0 ]; then
    targets=("$@")
    for t in "${targets[@]}"; do
        if ! printf '%s\n' "${all_targets[@]}" | grep -qx -- "$t"; then
            echo "fuzz: unknown target $t (targets: ${all_targets[*]})" >&2
            exit 2
        fi
    done
else
    targets=("${all_targets[@]}")
fi

# Release with debug assertions and overflow checks, AddressSanitizer (cargo-fuzz defaults).
echo "== cargo +nightly fuzz build (${targets[*]})"
if [ "${#targets[@]}" -eq "${#all_targets[@]}" ]; then
    cargo +nightly fuzz build
else
    for t in "${targets[@]}"; do cargo +nightly fuzz build "$t"; done
fi

failed=()
for t in "${targets[@]}"; do
    run_corpus="corpus-run/$t"
    mkdir -p "$run_corpus" "artifacts/$t"
    if [ -d "corpus/$t" ]; then
        cp -n corpus/"$t"/* "$run_corpus"/ 2>/dev/null || true
    fi
    marker="$(mktemp)"
    echo "== fuzz $t for ${seconds}s"
    status=0
    # One process: no -jobs/-workers (with -jobs=1 libFuzzer would only move the output into
    # fuzz-0.log). -timeout: an input taking over 10 s is reported as a hang. -detect_leaks=0:
    # LeakSanitizer once reported glibc's 32-byte thread-local destructor record
    # (__cxa_thread_atexit_impl) after millions of inputs; a leak is not the failure we hunt
    # (memory growth is bounded by -rss_limit_mb and -malloc_limit_mb instead).
    nice -n 10 cargo +nightly fuzz run "$t" "$run_corpus" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -detect_leaks=0 -print_final_stats=1 || status=$?
    new="$(find "artifacts/$t" -type f -newer "$marker" 2>/dev/null || true)"
    rm -f "$marker"
    if [ "$status" -ne 0 ] || [ -n "$new" ]; then
        failed+=("$t")
        echo "!! fuzz target $t failed (exit $status); reproducer(s):" >&2
        for f in $new; do
            echo "   fuzz/$f   replay: (cd fuzz && cargo +nightly fuzz run $t $f)" >&2
        done
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} target(s), ${seconds}s each, no crash"
