#!/bin/sh
# One-shot: creates (or upgrades) Temporal's two PostgreSQL databases. Idempotent.
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${SQL_PASSWORD:?}"
PORT="${DB_PORT:-5432}"
echo "waiting for PostgreSQL at ${POSTGRES_SEEDS}:${PORT}"
until nc -z -w 5 "$POSTGRES_SEEDS" "$PORT"; do sleep 2; done
tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -u "$POSTGRES_USER" -p "$PORT" "$@"; }
for db in temporal temporal_visibility; do
  schema=$([ "$db" = temporal ] && echo temporal || echo visibility)
  tool --db "$db" create || true   # already exists on restarts
  tool --db "$db" setup-schema -v 0.0 || true
  tool --db "$db" update-schema -d "/etc/temporal/schema/postgresql/v12/${schema}/versioned"
done
echo "schema ready"
