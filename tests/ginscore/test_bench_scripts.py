"""The benchmark scripts run as ``python bench/NAME.py``, which puts ``bench/`` first on ``sys.path``: a
script named like one of the project's apps or packages would be imported in its place (``bench/ratings.py``
once broke every benchmark that sets Django up)."""

from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def test_no_benchmark_script_is_named_like_an_installed_app_or_a_project_package():
    scripts = {path.stem for path in (ROOT / "bench").glob("*.py")}
    apps = {app.split(".")[0] for app in settings.INSTALLED_APPS}
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert scripts, "no benchmark scripts found"
    assert scripts.isdisjoint(apps | packages), sorted(scripts & (apps | packages))
