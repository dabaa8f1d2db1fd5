"""The operators' table of environment variables (docs/operators/environment.md) names every variable the
settings and gunicorn's configuration read: a setting read from the environment and left out of the table
fails here."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
READ = re.compile(r"""(?:os\.environ\.get|env_bool|env_list)\(\s*["']([A-Z0-9_]+)["']"""
                  r"""|env=["']([A-Z0-9_]+)["']""")
# Read by the settings but set by something else than an operator.
NOT_OPERATORS = {"PYTEST_VERSION", "DJANGO_SETTINGS_MODULE"}


def read_variables() -> set[str]:
    found = set()
    for path in (ROOT / "ginscore" / "settings.py", ROOT / "gunicorn.conf.py"):
        for match in READ.finditer(path.read_text()):
            found.add(match.group(1) or match.group(2))
    return found - NOT_OPERATORS


def documented_variables() -> set[str]:
    table = (ROOT / "docs" / "operators" / "environment.md").read_text()
    return set(re.findall(r"^\| `([A-Z0-9_]+)` \|", table, re.M))


def test_every_variable_the_settings_read_is_in_the_operators_table():
    assert read_variables() - documented_variables() == set()


def test_the_table_names_no_variable_nothing_reads():
    assert documented_variables() - read_variables() == set()


def test_the_reader_finds_the_settings_variables():
    assert {"SECRET_KEY", "DATABASE_URL", "PIN_KEYS", "WEB_CONCURRENCY", "DEBUG", "ALLOWED_HOSTS"} <= read_variables()
