#!/usr/bin/env bash
# Start the machine's PostgreSQL (as its own user: it refuses to run as root) and make a role
# that may create test databases. Prints the URL for TEST_POSTGRES_URL; exits 1 if none can run.
set -euo pipefail

ROLE=${PGTEST_ROLE:-sqp}
PASSWORD=${PGTEST_PASSWORD:-sqp}
PORT=${PGTEST_PORT:-5432}

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    else
        echo "PostgreSQL is not installed" >&2
        exit 1
    fi
fi

cluster=$(pg_lsclusters --no-header | awk 'NR==1 {print $1" "$2}')
if [ -z "$cluster" ]; then
    echo "No PostgreSQL cluster found" >&2
    exit 1
fi
read -r version name <<<"$cluster"
if ! pg_lsclusters --no-header | awk 'NR==1 {print $4}' | grep -q online; then
    pg_ctlcluster "$version" "$name" start >&2
fi
for _ in $(seq 1 30); do
    pg_isready -h 127.0.0.1 -p "$PORT" -q && break
    sleep 0.5
done

as_postgres() {
    if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else sudo -u postgres sh -c "$1"; fi
}
as_postgres "psql -q -p $PORT -v ON_ERROR_STOP=1 -c \"DO \\\$\\\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END \\\$\\\$;\"" >&2

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/postgres"
