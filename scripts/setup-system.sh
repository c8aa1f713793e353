#!/usr/bin/env bash
# System packages the tests need, installed only when missing (idempotent, quiet):
# PostgreSQL's server programs (initdb, pg_ctl, postgres), for the server's storage tests,
# which start a throwaway cluster of their own on loopback; and Debian's Chromium (with a
# font), which the browser tests drive headless through Playwright's Python package
# (Playwright's own browser download does not work here); and npm, with which the Makefile
# installs axe-core into .axe/ for the browser tests' accessibility checks. Installing needs root (apt-get);
# without root a missing package is reported and the tests that need it will fail.
set -euo pipefail

have_postgres() {
    command -v pg_ctl >/dev/null 2>&1 && return 0
    compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null 2>&1
}

have_chromium() {
    [ -x /usr/bin/chromium ] && [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]
}

# The table talk's reactions are emoji: without a colour emoji font Chromium draws boxes
# (players' own browsers have one; this machine's screenshots need it too).
have_emoji() {
    [ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]
}

missing=()
have_postgres || missing+=(postgresql)
# npm installs axe-core (the browser tests' accessibility checker) into .axe/: make axe
command -v npm >/dev/null 2>&1 || missing+=(npm)
have_chromium || missing+=(chromium fonts-dejavu-core)
have_emoji || missing+=(fonts-noto-color-emoji)
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-system: missing ${missing[*]}; install them (Debian: apt-get install" \
         "${missing[*]}) as root, or the tests that need them fail" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup-system: installing ${missing[*]} (apt-get)" >&2
apt-get update -qq >/dev/null
# PostgreSQL's own cluster is not used (the tests make their own); policy-rc.d may stop
# the service from starting here, which is fine.
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
have_postgres
have_chromium
have_emoji
command -v npm >/dev/null 2>&1
