"""The ginscore Django project: settings, URLs, WSGI/ASGI entry points. No business logic here."""
