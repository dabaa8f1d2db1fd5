"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
application = get_asgi_application()

from scoring.checks import require_secret_key  # noqa: E402  (after setup: it reads the settings)

require_secret_key()
