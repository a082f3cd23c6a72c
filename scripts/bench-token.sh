#!/usr/bin/env bash
# Issue 12 benchmark: token signatures through the signer utility beside a local key.
# Makes a SoftHSM2 token in a temporary folder (an RSA-2048 signer from `signet ca init`,
# imported with softhsm2-util; its certificate written with OpenSC's pkcs11-tool), starts
# `signet-bridge serve` for it on a free port, and runs `signet bench token` (default 100
# documents; extra arguments go to it, e.g. --count 500). Release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
module="${SIGNET_BENCH_PKCS11_MODULE:-/usr/lib/softhsm/libsofthsm2.so}"
cargo build --release -p signet -p signet-bridge
signet="$target/release/signet"
bridge="$target/release/signet-bridge"

work=$(mktemp -d)
bridge_pid=
cleanup() { [ -n "$bridge_pid" ] && kill "$bridge_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

pin=123456
export SOFTHSM2_CONF="$work/softhsm2.conf"
mkdir -p "$work/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$work/tokens" > "$SOFTHSM2_CONF"
softhsm2-util --init-token --free --label "Bench Token" --so-pin 12345678 --pin "$pin" >/dev/null
"$signet" ca init "$work/ca" --signer-name "Bench Token Signer" >/dev/null
openssl pkcs8 -topk8 -nocrypt -in "$work/ca/signer.key" -out "$work/signer.pk8.pem"
softhsm2-util --import "$work/signer.pk8.pem" --token "Bench Token" --label signer --id 01 --pin "$pin" >/dev/null
openssl x509 -in "$work/ca/signer.pem" -outform DER -out "$work/signer.der"
pkcs11-tool --module "$module" --token-label "Bench Token" --login --pin "$pin" \
  --write-object "$work/signer.der" --type cert --id 01 --label signer >/dev/null 2>&1
serial=$("$bridge" tokens --module "$module" | python3 -c 'import json,sys; print(next(t["serial"] for t in json.load(sys.stdin) if t["label"] == "Bench Token"))')
printf '%s\n' "$pin" > "$work/pin"

origin=http://127.0.0.1:1
"$bridge" serve --module "$module" --allow-origin "$origin" --port 0 --data-dir "$work/bridge" --no-install-ca \
  > "$work/bridge.out" 2>"$work/bridge.err" &
bridge_pid=$!
for _ in $(seq 100); do [ -s "$work/bridge.out" ] && break; sleep 0.1; done
url=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["url"])' "$work/bridge.out")
ca=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["ca"])' "$work/bridge.out")

"$signet" bench token --bridge "$url" --bridge-ca "$ca" --origin "$origin" --token "$serial" --key-id 01 \
  --pin-file "$work/pin" --dir "$work/out" "$@"
