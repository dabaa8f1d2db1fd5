"""The event engine must stay plain Python: no Django, no DRF, importable without settings."""

import pathlib
import re
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[3] / "tournaments" / "engine"


def test_no_event_engine_module_imports_django_or_drf():
    pattern = re.compile(r"^\s*(from|import)\s+(django|rest_framework)\b", re.MULTILINE)
    modules = list(ENGINE.rglob("*.py"))
    assert len(modules) >= 5
    assert [p.name for p in modules if pattern.search(p.read_text())] == []


def test_importing_the_event_engine_loads_no_django_module():
    code = (
        "import sys; import tournaments.engine; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parents[1], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
