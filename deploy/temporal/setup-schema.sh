#!/bin/sh
# One-shot: creates (or upgrades) Temporal's two PostgreSQL databases, persistence and
# visibility, with the schemas embedded in temporal-sql-tool (the same version as the
# server). Run by docker-compose.yml (the admin-tools image) and by `npm run cluster -- up`
# (the tool built under .tools/, put on PATH), so the two set up the same schema.
# Idempotent: an existing database is kept and only upgraded.
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${SQL_PASSWORD:?}"
PORT="${DB_PORT:-5432}"
export SQL_PASSWORD
if command -v nc >/dev/null 2>&1; then
  echo "waiting for PostgreSQL at ${POSTGRES_SEEDS}:${PORT}"
  until nc -z -w 5 "$POSTGRES_SEEDS" "$PORT"; do sleep 2; done
fi
tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -u "$POSTGRES_USER" -p "$PORT" "$@"; }
for db in "${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"; do
  name="${db%%:*}"
  schema="${db#*:}"
  # Both fail harmlessly when the database or its version table already exists.
  tool --db "$name" create-database >/dev/null 2>&1 || true
  tool --db "$name" setup-schema -v 0.0 >/dev/null 2>&1 || true
  tool --db "$name" update-schema --schema-name "postgresql/v12/${schema}"
done
echo "schema ready"
