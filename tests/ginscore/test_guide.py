"""The guide is served by the app itself at /help/ (a hall may have no internet), once ``make docs`` built it;
the menu, the table's entry page, the directors' event page and the check-in page link to it."""

import pytest
from django.test import Client

from core import guide as guide_module

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(tmp_path, monkeypatch):
    site = tmp_path / "html"
    (site / "directors").mkdir(parents=True)
    (site / "index.html").write_text("<h1>ginscore: the guide</h1>")
    (site / "directors" / "check-in.html").write_text("<h1>Running check-in</h1>")
    monkeypatch.setattr(guide_module, "guide_root", lambda: site)
    return site


def _text(answer) -> str:
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()


def test_the_built_guide_is_served_under_help(built):
    assert "ginscore: the guide" in _text(Client().get("/help/"))
    assert "Running check-in" in _text(Client().get("/help/directors/check-in.html"))
    assert Client().get("/help/nowhere.html").status_code == 404
    assert Client().get("/help/%2E%2E/%2E%2E/ginscore/settings.py").status_code in (400, 404)  # never outside the site


def test_before_it_is_built_help_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setattr(guide_module, "guide_root", lambda: tmp_path / "nothing")
    answer = Client().get("/help/")
    assert answer.status_code == 404
    assert "make docs" in answer.content.decode()


def test_the_pages_link_to_the_guide():
    assert 'href="/help/">Help</a>' in Client().get("/").content.decode()
