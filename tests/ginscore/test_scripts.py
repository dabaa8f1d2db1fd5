"""The throwaway PostgreSQL cluster: fast and forgetful for tests, durable for the benchmark."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def options(durable: str) -> str:
    script = f'. scripts/throwaway-postgres.sh; PG_PORT=5999 PG_DIR=/tmp/x PG_DURABLE={durable} pg_options'
    return subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_tests_run_without_fsync_and_the_benchmark_runs_durable():
    assert "fsync=off" in options("0")
    assert "synchronous_commit=off" in options("0")
    assert "fsync=off" not in options("1")
    assert "synchronous_commit" not in options("1")
    assert "export PG_DURABLE=1" in (ROOT / "bench/run_api.sh").read_text()
