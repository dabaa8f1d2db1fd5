"""gunicorn's settings file: once a worker has loaded the application, what lives as long as the process
is frozen out of the garbage collector's sight (every view imported and the URL map built both ways
first), and the young generation
is collected less often."""

import gc
import runpy
import sys
from pathlib import Path

from django.urls import clear_url_caches, get_resolver
from django.utils.translation import get_language

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def test_a_loaded_worker_freezes_its_application_with_the_views_imported_first():
    settings = runpy.run_path(str(CONF))
    thresholds = gc.get_threshold()
    clear_url_caches()  # a worker starts with no URL map built
    try:
        settings["post_worker_init"](worker=None)
        assert "scoring.api.views" in sys.modules  # the URL map's views, imported before the freeze
        assert get_language() in get_resolver()._reverse_dict  # and the names to paths: reverse() finds it made
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == (10_000, 10, 10)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_the_settings_file_declares_threaded_workers_and_no_preloading():
    settings = runpy.run_path(str(CONF))
    assert settings["worker_class"] == "core.gunicorn_worker.SheddingThreadWorker"
    assert settings["preload_app"] is False
