"""The house rules import-linter cannot say (its contracts, in pyproject.toml, run in ``make lint``: core
below the apps; seasons and ratings above tournaments above scoring; pages never import the API; no import
cycle): no module over 600 lines, an engine importing only the standard library and itself (import-linter
names modules to forbid; this names the only ones allowed), and within an app no service, selector or model
importing the layers that call it.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("core", "ginscore", "scoring", "tournaments", "seasons", "ratings")
MAX_LINES = 600
# What a module of the service layer may never import: the layers that call it.
ABOVE_SERVICES = ("views", "api", "forms", "admin", "management", "tables", "urls")


def project_modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: pathlib.Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its package."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_no_module_of_the_project_is_over_600_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in project_modules()}
    long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize("engine", ["scoring.engine", "tournaments.engine", "seasons.engine", "ratings.engine"])
def test_an_engine_imports_only_itself_and_the_standard_library(engine):
    folder = ROOT.joinpath(*engine.split("."))
    offenders = {}
    for path in folder.rglob("*.py"):
        outside = {m for m in imported_modules(path)
                   if m.split(".")[0] in (*PACKAGES, "django", "rest_framework") and not m.startswith(engine)}
        if outside:
            offenders[path.name] = sorted(outside)
    assert offenders == {}


@pytest.mark.parametrize("app", ["scoring", "tournaments", "seasons", "ratings"])
def test_services_selectors_and_models_never_import_the_layers_that_call_them(app):
    low = ("services", "selectors", "models", "results", "policy", "sheets", "signals", "receivers", "caching")
    offenders = {}
    for path in project_modules():
        parts = module_name(path).split(".")
        if parts[0] != app or len(parts) < 2 or parts[1] not in low:
            continue
        above = {m for m in imported_modules(path)
                 if m.split(".")[0] in PACKAGES and len(m.split(".")) > 1 and m.split(".")[1] in ABOVE_SERVICES}
        if above:
            offenders[str(path.relative_to(ROOT))] = sorted(above)
    assert offenders == {}


def test_the_import_reader_resolves_relative_imports():
    """The checks above are only as good as this: a relative import names the module it reaches."""
    found = imported_modules(ROOT / "tournaments" / "services" / "rounds.py")
    assert "tournaments.services.brackets.open_bracket" in found
    assert "tournaments.stored_event" in found


@pytest.mark.parametrize("app", ["scoring", "tournaments", "seasons"])
def test_every_service_an_app_offers_refuses_only_with_a_refusal(app):
    """Each function an app's services package offers is an edge (``core.refusals.service_edge``): an engine's
    error raised inside leaves it as a ``Refusal``, so the pages and the API word one refusal type. A new
    service without its edge fails here (a context manager's body runs in its caller's ``with``: not one)."""
    import importlib
    import inspect

    package = importlib.import_module(f"{app}.services")
    offered = [getattr(package, name) for name in package.__all__]
    services = [f for f in offered if inspect.isfunction(f) and f.__module__.startswith(f"{app}.services.")
                and f.__name__ != "form_sent_once"]
    assert len(services) >= 3
    assert sorted(f.__name__ for f in services if not getattr(f, "service_edge", False)) == []


def test_an_engine_error_leaves_a_service_as_a_refusal_with_its_problems():
    from core.refusals import Refusal, service_edge
    from scoring.engine import SheetError

    @service_edge(SheetError)
    def scores(hand):
        raise SheetError.one(hand, "deadwood", "count the deadwood again")

    @service_edge(SheetError)
    def breaks():
        raise KeyError("a bug")

    with pytest.raises(Refusal) as refused:
        scores(3)
    assert refused.value.as_dict() == {"errors": [{"hand": 3, "field": "deadwood",
                                                   "message": "count the deadwood again"}]}
    assert str(refused.value) == "hand 3, deadwood: count the deadwood again"
    with pytest.raises(KeyError):
        breaks()
