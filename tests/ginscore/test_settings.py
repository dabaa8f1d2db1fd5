"""Production settings: DEBUG off unless set, HTTPS on by default without it, ``check --deploy`` clean
with the production environment the README gives."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"SECRET_KEY": "x" * 20 + "-production-secret-from-the-environment-1234567890",
              "PIN_KEYS": "k1:a-production-pin-key-from-the-environment",
              "ALLOWED_HOSTS": "gin.example.org", "DATABASE_URL": "sqlite:////tmp/ginscore-deploy-check.sqlite3"}


def manage(*args, **env):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"PYTEST_VERSION", "DEBUG", "SECRET_KEY", "PIN_KEYS", "DJANGO_SETTINGS_MODULE"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def setting(name, **env):
    return manage("shell", "-c", f"from django.conf import settings; print(settings.{name})", **env).stdout.split()[-1]


def test_check_deploy_is_clean_with_the_production_environment():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_debug_is_off_unless_set_and_https_is_then_on():
    assert setting("DEBUG", **PRODUCTION) == "False"
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION) == "True"
    assert setting("SECURE_HSTS_SECONDS", **PRODUCTION) == "31536000"
    assert setting("SESSION_COOKIE_SECURE", **PRODUCTION) == "True"
    assert setting("SECURE_SSL_REDIRECT", **PRODUCTION, SECURE_SSL_REDIRECT="0") == "False"
    assert setting("DEBUG", DEBUG="1") == "True"


def test_without_debug_a_secret_key_is_required():
    result = manage("check", ALLOWED_HOSTS="gin.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_without_debug_a_pin_key_is_required_and_must_be_long_enough():
    without = {k: v for k, v in PRODUCTION.items() if k != "PIN_KEYS"}
    result = manage("check", **without)
    assert result.returncode != 0
    assert "PIN_KEYS must be set when DEBUG is off" in result.stderr
    short = manage("check", **{**PRODUCTION, "PIN_KEYS": "k1:short"})
    assert short.returncode != 0
    assert "secrets of at least 16 random characters" in short.stderr


@pytest.mark.django_db
def test_an_unknown_referee_link_gets_the_friendly_404_page(client):
    page = client.post("/r/", {"token": "revoked-or-unknown"})
    assert page.status_code == 404
    text = page.content.decode()
    assert "ask the organiser for a new one" in text
    assert "Traceback" not in text


def test_throttle_counters_live_in_a_cache_every_worker_shares():
    assert setting("CACHES['default']['BACKEND']", **PRODUCTION) == "core.cache.AtomicDatabaseCache"
    redis = setting("CACHES['default']['BACKEND']", **PRODUCTION, REDIS_URL="redis://127.0.0.1:6379/0")
    assert redis == "django.core.cache.backends.redis.RedisCache"


@pytest.mark.parametrize(("command", "document", "location"), [
    ("event", '{"format": "swiss", "entries": [{"name": "Ann"}, {"name": "Bob"}]}', "result"),
    ("score", '{"players": ["Ann", "Bob"], "hands": []}', "hand"),
])
def test_the_calculator_commands_answer_without_debug_or_a_secret_key(command, document, location):
    """They sign nothing: a fresh clone's `manage.py event` answers EVENTS.md's way with no setup."""
    clean = {k: v for k, v in os.environ.items() if k not in {"PYTEST_VERSION", "DEBUG", "SECRET_KEY"}}
    answered = subprocess.run([sys.executable, "manage.py", command, "--compact"], cwd=ROOT, env=clean,
                              input=document, capture_output=True, text=True, timeout=120)
    assert answered.returncode == 0, answered.stderr
    assert answered.stdout.startswith("{")
    refused = subprocess.run([sys.executable, "manage.py", command], cwd=ROOT, env=clean, input="[[",
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2, refused.stderr
    assert refused.stdout.count(f'"{location}": null') == 1


def test_the_servers_refuse_to_start_without_a_secret_key():
    clean = {k: v for k, v in os.environ.items() if k not in {"PYTEST_VERSION", "DEBUG", "SECRET_KEY"}}
    for module in ("ginscore.wsgi", "ginscore.asgi"):
        started = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=clean,
                                 capture_output=True, text=True, timeout=120)
        assert started.returncode != 0
        assert "SECRET_KEY must be set when DEBUG is off" in started.stderr
