#!/usr/bin/env bash
# The API benchmark on a throwaway PostgreSQL cluster (see bench/api.py).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/throwaway-postgres.sh
trap pg_stop EXIT
pg_start
.venv/bin/python bench/api.py
