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


def test_schemathesis_also_sends_non_objects_lone_surrogates_and_unicode_digits():
    import importlib.util

    from hypothesis import find
    from hypothesis import strategies as st

    spec = importlib.util.spec_from_file_location("schemathesis_hooks", ROOT / "scripts/schemathesis_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    assert "schemathesis_hooks.py" in (ROOT / "scripts/schemathesis.sh").read_text()

    def lone(value):
        return isinstance(value, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in value)

    bodies = hooks.before_generate_body(None, st.just({"name": "Ann", "order": [1]}))
    for shape in (list, str, int, type(None)):
        find(bodies, lambda b, shape=shape: type(b) is shape)
    poisoned = find(bodies, lambda b: isinstance(b, dict) and lone(b.get("name")))
    assert any(lone(k) for k in poisoned)
    for hook in (hooks.before_generate_query, hooks.before_generate_path_parameters):
        values = hook(None, st.just({"round": 1}))
        assert find(values, lambda v: v["round"] == "²")["round"] == "²"
        find(values, lambda v: v["round"] == "1" * 30)
