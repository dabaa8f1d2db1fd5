#!/usr/bin/env bash
# The API, tournament-night and trust benchmarks on a throwaway PostgreSQL cluster (bench/api.py,
# bench/events_api.py, bench/trust.py), durable as in production (fsync and synchronous_commit on: PG_DURABLE=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export PG_DURABLE=1
. scripts/throwaway-postgres.sh
trap pg_stop EXIT
pg_start
.venv/bin/python bench/api.py
.venv/bin/python bench/events_api.py
.venv/bin/python bench/trust.py
