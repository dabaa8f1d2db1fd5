"""WSGI entry point (gunicorn ginscore.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
application = get_wsgi_application()

from scoring.checks import require_secret_key  # noqa: E402  (after setup: it reads the settings)

require_secret_key()
