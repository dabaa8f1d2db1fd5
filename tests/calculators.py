"""Both doors of a stateless calculator (a command reading standard input, an anonymous POST)."""

import io
import json

from django.core.management import call_command
from rest_framework.test import APIClient


def run_calculator_command(command, stdin_text, monkeypatch):
    """(exit code, the JSON printed) of ``manage.py <command>`` given ``stdin_text``."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin_text))
    out = io.StringIO()
    try:
        call_command(command, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def post_json(url, body, client=None):
    """``body`` (a document, or raw text sent as it is) POSTed as JSON."""
    client = client or APIClient()
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json")
