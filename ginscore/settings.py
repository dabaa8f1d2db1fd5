"""ginscore's one settings module, driven by the environment.

``DEBUG`` is off unless set (``make run`` sets ``DEBUG=1``). With ``DEBUG`` off, ``SECRET_KEY`` must be
set to serve or migrate (tests, run by pytest, get a throwaway one) and HTTPS is on by default: SSL redirect, HSTS and
secure cookies, each settable from the environment (README: production). SQLite by default,
PostgreSQL via ``DATABASE_URL`` (psycopg 3); the shared cache (throttles) is the database unless
``REDIS_URL`` is set. Limits: ``MAX_REQUEST_BYTES``, the throttle rates, ``NUM_PROXIES``.
"""

import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# pytest sets PYTEST_VERSION before anything is imported: tests get a key of their own.
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and (DEBUG or TESTING):
    SECRET_KEY = "dev-only-insecure-key-" + secrets.token_urlsafe(40)
# Without DEBUG and without a key, SECRET_KEY stays empty: the system check scoring.E001 then stops
# every command that runs checks (runserver, migrate, check) and wsgi/asgi refuse to start, while the
# calculator commands, which sign nothing, still answer.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# HTTPS in production, each settable: behind a TLS-terminating proxy set SECURE_PROXY_SSL_HEADER=1
# (it must strip and set X-Forwarded-Proto itself).
# (The test client and the test live server speak plain HTTP.)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not (DEBUG or TESTING))
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Request bodies: a real score sheet (500 card-level hands) is well under this.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_REQUEST_BYTES", str(256 * 1024)))
# How many reverse proxies in front of the app write X-Forwarded-For (0: trust none of it).
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tables2",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scoring.middleware.RequestSizeLimitMiddleware",
    "scoring.middleware.DatabaseBusyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "ginscore.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "ginscore.wsgi.application"
ASGI_APPLICATION = "ginscore.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # A connection the database dropped (a restart) is replaced before the next request uses it.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The development database: a write transaction takes SQLite's write lock when it begins, and a second
    # one waits for it (up to 20 s) instead of failing at once with "database is locked" (two directors
    # pairing at once). If the wait runs out, the page or the API says so and to try again (503).
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development WhiteNoise serves straight from the app's static folders; production runs collectstatic.
# Tests, like development, serve the app's static folders as they are (no collectstatic run).
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scoring.api.auth.ApiTokenAuthentication",
        "scoring.api.auth.RefereeLinkAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "scoring.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # ?format= filters games by table format; responses are JSON (or the browsable page) by Accept.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["scoring.api.throttles.AnonymousThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("ANON_THROTTLE_RATE", "120/minute"),
        "calculator": os.environ.get("CALCULATOR_THROTTLE_RATE", "60/minute"),
        "login": os.environ.get("LOGIN_THROTTLE_RATE", "10/minute"),
    },
    "NUM_PROXIES": NUM_PROXIES,
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "ginscore API",
    "DESCRIPTION": "Scoring and bookkeeping for Gin Rummy clubs and tournaments. Errors are always "
    '{"errors": [{"hand", "field", "message"}]} (the event calls name the result, not the hand).',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scoring.api.schema.add_error_responses",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    # <id:...> in the tournaments' URLs: a stored id of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}},
    # Several shapes have a "format" or a "status" of their own: each choice set gets a name that says whose.
    "ENUM_NAME_OVERRIDES": {
        "GameFormatEnum": "scoring.models.Game.Format",
        "GameStatusEnum": "scoring.models.Game.Status",
        "EventFormatEnum": "tournaments.models.Event.Format",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "KnockoutFormatEnum": ["single_elimination", "double_elimination"],
        "MatchStatusEnum": ["draft", "waiting", "playing", "decided", "bye", "reset"],
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:game_list"
LOGOUT_REDIRECT_URL = "scoring:home"

# Shared by every worker and machine (throttle counters): the database, or Redis when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "scoring.cache.AtomicDatabaseCache", "LOCATION": "ginscore_cache"},
    # Each worker's own memory, for content whose key names the version it was made from (an event's
    # standings for one results fingerprint): such an entry is never stale, so no worker need share it.
    "versioned": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ginscore-versioned",
                  "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("VERSIONED_CACHE_ENTRIES", "100"))}},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler", "level": os.environ.get("LOG_LEVEL", "INFO")}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
