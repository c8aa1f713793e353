#!/usr/bin/env bash
# System packages the tests need, installed only when missing (idempotent, quiet):
# PostgreSQL's server programs (initdb, pg_ctl, postgres), for the server's storage tests,
# which start a throwaway cluster of their own on loopback. Installing needs root (apt-get);
# without root a missing PostgreSQL is reported and the tests that need it will fail.
set -euo pipefail

have_postgres() {
    command -v pg_ctl >/dev/null 2>&1 && return 0
    compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null 2>&1
}

if have_postgres; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-system: PostgreSQL's server is missing; install it (Debian: apt-get install" \
         "postgresql) as root, or the PostgreSQL tests fail" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup-system: installing PostgreSQL (apt-get)" >&2
apt-get update -qq >/dev/null
# The package's own cluster is not used (the tests make their own); policy-rc.d may stop
# the service from starting here, which is fine.
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
have_postgres
