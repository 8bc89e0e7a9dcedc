#!/bin/sh
# Installs Debian's PostgreSQL server (initdb, pg_ctl, postgres) for the lab's tests.
#
# The tests start their own throw-away server from these binaries (lab/tests/postgres_server.py);
# this script only installs them. Runs apt-get as root, or through `sudo -n` otherwise (fails
# rather than asking for a password). The package's own cluster is not started here.
set -eu

WHO=install-postgres
WHAT="a PostgreSQL server"
. "$(dirname "$0")/apt.sh"

have_server() {
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && return 0
    done
    return 1
}

$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends postgresql

if ! have_server; then
    # dpkg lists the package but its files are gone (e.g. removed by an image clean-up):
    # reinstall the versioned server package that `postgresql` depends on.
    pkg=$(dpkg-query -W -f='${Package}\n' 'postgresql-[0-9]*' 2>/dev/null \
          | grep -E '^postgresql-[0-9]+$' | sort -t- -k2 -n | tail -n 1)
    pkg=${pkg:-postgresql-15}
    echo "install-postgres: server binaries missing, reinstalling $pkg" >&2
    $SUDO apt-get install -y -q --no-install-recommends --reinstall "$pkg"
fi

if ! have_server; then
    echo "install-postgres: installed, but no /usr/lib/postgresql/*/bin/{initdb,pg_ctl,postgres}" >&2
    exit 1
fi
for d in /usr/lib/postgresql/*/bin; do echo "install-postgres: server binaries in $d"; done
