#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian machine: HAProxy (the fault run,
# scripts/fault-run.sh, balances three instances with it), outside validators
# (poppler's pdfsig/pdftoppm, xmlsec1, qpdf, Ghostscript, OpenSSL, zbar's zbarimg to read QR
# codes off rendered pages), SoftHSM2 and OpenSC's
# pkcs11-tool (a PKCS#11 token for the signer utility's tests; p11-kit's PKCS#11 header to
# build a module that locks it after wrong PINs), a local S3 server (moto),
# pyHanko and PDF producers for test inputs, xsdata (pyHanko's bindings of the ETSI report schema), a running PostgreSQL, and mingw-w64 for the
# Windows build of the signer utility.
# Idempotent: tools already present are not reinstalled.
set -euo pipefail

need_apt=()
for pair in pdfsig:poppler-utils pdftoppm:poppler-utils xmlsec1:xmlsec1 qpdf:qpdf gs:ghostscript \
            openssl:openssl wrk:wrk curl:curl certutil:libnss3-tools node:nodejs \
            chromium:chromium softhsm2-util:softhsm2 pkcs11-tool:opensc zbarimg:zbar-tools \
            x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 haproxy:haproxy; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need_apt+=("${pair##*:}")
done
# A Devanagari font, so that chromium draws the console's Hindi (crates/server/tests/e2e/console.rs
# audits the pages in Hindi too, and keeps their screenshots).
[ -f /usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf ] || need_apt+=(fonts-lohit-deva)
# The PKCS#11 header the bridge's PIN lock shim is built with (crates/bridge/tests/pin_lock.rs).
[ -f /usr/include/p11-kit-1/p11-kit/pkcs11.h ] || need_apt+=(libp11-kit-dev)
if ! command -v pg_ctlcluster >/dev/null 2>&1 && ! command -v postgres >/dev/null 2>&1; then
  need_apt+=(postgresql)
fi
if ((${#need_apt[@]})); then
  echo "installing apt packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

python_ok() { python3 - <<'PY' 2>/dev/null
import pyhanko, pyhanko_certvalidator, reportlab, pypdf, moto, cryptography, lxml, PIL, aiosmtpd, openpyxl, xsdata  # noqa: F401
import httpx, attrs, dateutil, pytest  # noqa: F401  (the Python client's tests: crates/signet/tests/clients.rs)
import shutil, sys
from importlib.metadata import version
# api_fuzz.rs needs schemathesis 4.32+ (two WFC users as peers, `--checks all` with every check).
schemathesis = tuple(int(p) for p in version("schemathesis").split(".")[:2])
# The Python client's generator, pinned (clients/python/requirements-generate.txt): its test
# regenerates the client and compares it with what is committed.
pinned = dict(line.strip().split("==") for line in open("clients/python/requirements-generate.txt") if "==" in line)
generator_pinned = all(version(name) == want for name, want in pinned.items())
sys.exit(0 if all(shutil.which(t) for t in ("moto_server", "pyhanko", "st")) and (4, 32) <= schemathesis < (5, 0) and generator_pinned else 1)
PY
}
if ! python_ok; then
  echo "installing Python test tools"
  python3 -m pip install -q --disable-pip-version-check \
    pyhanko pyhanko-cli pyhanko-certvalidator reportlab pypdf 'moto[server]' cryptography lxml pillow aiosmtpd openpyxl xsdata 'schemathesis>=4.32,<5' \
    httpx attrs python-dateutil pytest -r clients/python/requirements-generate.txt \
    || python3 -m pip install -q --break-system-packages \
    pyhanko pyhanko-cli pyhanko-certvalidator reportlab pypdf 'moto[server]' cryptography lxml pillow aiosmtpd openpyxl xsdata 'schemathesis>=4.32,<5' \
    httpx attrs python-dateutil pytest -r clients/python/requirements-generate.txt
fi

command -v cargo-nextest >/dev/null 2>&1 || cargo install --locked cargo-nextest
# Finds dependencies a manifest names and no code uses (scripts/test.sh runs it).
command -v cargo-machete >/dev/null 2>&1 || env -u CARGO_TARGET_DIR cargo install --locked cargo-machete

# The browser tests (crates/server/tests/e2e/gateway_browser.rs) drive Debian's chromium through
# playwright-core (no bundled browser), which needs Node.js 20 or later and npm; the single
# sign-on tests (crates/server/tests/e2e/sso.rs) also start a real OpenID provider (oidc-provider). The driver is
# installed from its committed lock file when missing or older than the lock.
if ! command -v npm >/dev/null 2>&1; then
  echo "installing apt packages: npm"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_major < 20)); then
  echo "the browser tests need Node.js 20 or later (found $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
browser_dir=crates/server/tests/browser
if [ ! -d "$browser_dir/node_modules/playwright-core" ] || [ ! -d "$browser_dir/node_modules/oidc-provider" ] || [ ! -d "$browser_dir/node_modules/axe-core" ] \
   || [ "$browser_dir/package-lock.json" -nt "$browser_dir/node_modules/.package-lock.json" ]; then
  echo "installing the browser test driver (npm ci in $browser_dir)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$browser_dir" --no-audit --no-fund --silent
fi
# The OpenAPI linter (crates/server/tests/e2e/openapi.rs) and the TypeScript client's build and
# tests (crates/signet/tests/clients.rs), each from its committed lock file.
for node_dir in clients/openapi-lint clients/typescript; do
  [ -f "$node_dir/package-lock.json" ] || continue
  if [ ! -d "$node_dir/node_modules" ] || [ "$node_dir/package-lock.json" -nt "$node_dir/node_modules/.package-lock.json" ]; then
    echo "installing $node_dir (npm ci)"
    npm ci --prefix "$node_dir" --no-audit --no-fund --silent
  fi
done

# PostgreSQL: use the running server, else start the installed cluster, else create one.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ls /etc/postgresql/*/main >/dev/null 2>&1; then
    version=$(ls /etc/postgresql | sort -V | tail -1)
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL did not start on 127.0.0.1:5432" >&2; exit 1; }
# A password lets this work whether the server trusts local TCP or asks for one.
if command -v runuser >/dev/null 2>&1 && id postgres >/dev/null 2>&1; then
  runuser -u postgres -- psql -q -h /var/run/postgresql -c "ALTER USER postgres PASSWORD 'postgres'" >/dev/null 2>&1 || true
  runuser -u postgres -- psql -q -h /var/run/postgresql -tc "SELECT 1 FROM pg_database WHERE datname='test'" 2>/dev/null | grep -q 1 \
    || runuser -u postgres -- createdb -h /var/run/postgresql test 2>/dev/null || true
fi
echo "test dependencies ready"
