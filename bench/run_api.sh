#!/usr/bin/env bash
# The API, stored-event, trust and night benchmarks on a throwaway PostgreSQL cluster (bench/api.py,
# bench/events_api.py, bench/trust.py, bench/night.py), durable as in production (fsync and
# synchronous_commit on: PG_DURABLE=1). NIGHT="--big" (make bench NIGHT=--big) runs the 1,000-player night.
set -euo pipefail
cd "$(dirname "$0")/.."
export PG_DURABLE=1
. scripts/throwaway-postgres.sh
trap pg_stop EXIT
pg_start
.venv/bin/python bench/api.py
.venv/bin/python bench/events_api.py
.venv/bin/python bench/trust.py
# shellcheck disable=SC2086  # NIGHT holds the night's flags, word by word
.venv/bin/python bench/night.py ${NIGHT:-}
