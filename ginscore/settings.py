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
import dj_email_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def pin_keys(raw: str) -> dict[str, bytes]:
    """``PIN_KEYS`` as the environment gives it: ``id:secret,id2:secret2``, the current key first."""
    keys: dict[str, bytes] = {}
    for item in raw.split(","):
        key_id, sep, secret = item.strip().partition(":")
        if not item.strip():
            continue
        if not sep or not key_id or "$" in key_id or len(secret) < 16:
            raise ValueError("PIN_KEYS is a list of id:secret, the current key first (ids without '$', "
                             "secrets of at least 16 random characters)")
        keys[key_id] = secret.encode()
    return keys


DEBUG = env_bool("DEBUG", False)
# pytest sets PYTEST_VERSION before anything is imported: tests get a key of their own.
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and (DEBUG or TESTING):
    SECRET_KEY = "dev-only-insecure-key-" + secrets.token_urlsafe(40)
# Without DEBUG and without a key, SECRET_KEY stays empty: the system check scoring.E001 then stops
# every command that runs checks (runserver, migrate, check) and wsgi/asgi refuse to start, while the
# calculator commands, which sign nothing, still answer.

# Players' PINs are hashed with a keyed HMAC (scoring.pins): the key comes from the environment, never
# from the database. Development and tests get a fixed key of their own; production must set PIN_KEYS.
PIN_KEYS = pin_keys(os.environ.get("PIN_KEYS", ""))
if not PIN_KEYS and (DEBUG or TESTING):
    PIN_KEYS = {"dev": b"ginscore-development-only-pin-key"}

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
# Past capacity (core.shedding): a request that waited longer than this in gunicorn's queue, in seconds,
# is answered 503 at once. A phone's refresh backs off and asks again; a hand at a table waits longer.
SHED_READS_AFTER = float(os.environ.get("SHED_READS_AFTER", "1.0"))
SHED_WRITES_AFTER = float(os.environ.get("SHED_WRITES_AFTER", "3.0"))
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
    "core",
    "scoring",
    "tournaments",
    "seasons",
    "ratings",
    "notifications",
]

MIDDLEWARE = [
    "core.shedding.LoadSheddingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.RequestSizeLimitMiddleware",
    "core.middleware.DatabaseBusyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.middleware.ApiTrailingSlashMiddleware",
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
ON_POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# The statements of every recorded hand prepared once per connection (core.prepared); 0 behind a
# transaction-pooling proxy such as PgBouncer, which hands one session to many clients.
DB_PREPARED_STATEMENTS = os.environ.get("DB_PREPARED_STATEMENTS", "1") != "0"

# Background jobs (core.jobs): on PostgreSQL a queue that a worker runs (procrastinate, in the same
# database), elsewhere in the web process right after the commit. Tests run them inline on both unless a
# test asks for the queue; JOBS=inline or JOBS=queue overrides.
JOBS = os.environ.get("JOBS") or ("queue" if ON_POSTGRESQL and not TESTING else "inline")
if JOBS not in ("inline", "queue") or (JOBS == "queue" and not ON_POSTGRESQL):
    raise ValueError("JOBS is inline, or queue (which needs PostgreSQL: DATABASE_URL)")
if ON_POSTGRESQL:
    # Its tables and functions are PostgreSQL's own; the tasks themselves live in each app's tasks.py.
    INSTALLED_APPS.insert(INSTALLED_APPS.index("scoring"), "procrastinate.contrib.django")
# Finished jobs are deleted (an event's answer is refreshed after every result); failed ones are kept.
PROCRASTINATE_WORKER_DEFAULTS = {"concurrency": int(os.environ.get("JOB_CONCURRENCY", "2")),
                                 "delete_jobs": "successful"}

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
    "DEFAULT_PARSER_CLASSES": ["core.api.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "core.api.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "core.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # ?format= filters games by table format; responses are JSON (or the browsable page) by Accept.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["scoring.throttles.RequestThrottle"],
    # Per credential, never per address alone: a hall's tables share one public address.
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("ANON_THROTTLE_RATE", "120/minute"),  # per address, no credential
        "user": os.environ.get("USER_THROTTLE_RATE", "600/minute"),  # per signed-in account
        "link": os.environ.get("LINK_THROTTLE_RATE", "300/minute"),  # per table link
        "calculator": os.environ.get("CALCULATOR_THROTTLE_RATE", "60/minute"),  # per address, anonymous
        "login": os.environ.get("LOGIN_THROTTLE_RATE", "10/minute"),  # per address and username
        "login_address": os.environ.get("LOGIN_ADDRESS_THROTTLE_RATE", "100/minute"),  # per address
        "bad_token": os.environ.get("BAD_TOKEN_THROTTLE_RATE", "20/minute"),  # wrong tokens per address
    },
    "NUM_PROXIES": NUM_PROXIES,
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
}

# The OpenAPI schema is made once per process for each audience this says (an organiser sees personal fields).
SCHEMA_AUDIENCE = "scoring.api.schema.schema_audience"
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
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        "KnockoutFormatEnum": ["single_elimination", "double_elimination"],
        "MatchStatusEnum": ["draft", "waiting", "playing", "decided", "bye", "reset"],
        "WebhookFormatEnum": "notifications.models.Subscription.Format",
        "DeliveryStatusEnum": "notifications.models.Message.Status",
        "AttemptStatusEnum": "notifications.models.Attempt.Status",
        "EmailStatusEnum": "notifications.models.Email.Status",
        "RoundEmailKindEnum": ["pairings", "standings"],
    },
    # The payload each webhook type sends (notifications.api.schema), in the schema's "webhooks" section.
    "WEBHOOKS": [f"notifications.api.schema.{name}" for name in (
        "ROUND_PUBLISHED", "ROUND_COMPLETED", "MATCH_DECIDED", "STANDINGS_UPDATED", "EVENT_FINISHED",
        "REGISTRATION_CREATED", "REGISTRATION_PROMOTED", "REGISTRATION_WITHDRAWN", "HAND_CONFIRMED", "PING")],
}

# Telling the world (notifications): the site's own address for links in emails and webhook payloads, email
# from EMAIL_URL (dj-email-url: smtp://user:password@host:587/?tls=True; the console in development and by
# default), and webhooks: the delay before each attempt in seconds (the first's included; the Svix schedule),
# and whether a subscription may name a private, loopback or link-local address (a club's own network).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
globals().update(dj_email_url.parse(os.environ.get("EMAIL_URL", "console:")))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "ginscore <noreply@localhost>")
WEBHOOK_RETRY_SCHEDULE = [int(s) for s in env_list("WEBHOOK_RETRY_SCHEDULE", "0,5,300,1800,7200,18000,36000,36000")]
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", False)
# With jobs inline, work that must not hold up a request runs in a thread of the web process (core.background);
# the tests run it when they wait for it, in their own thread (their in-memory SQLite has one writer at a time).
BACKGROUND_THREAD = not TESTING

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:game_list"
LOGOUT_REDIRECT_URL = "scoring:home"

# Shared by every worker and machine (throttle counters): the database, or Redis when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "core.cache.AtomicDatabaseCache", "LOCATION": "ginscore_cache"},
    # Each worker's own memory, for content whose key names the version it was made from (an event's
    # standings for one results fingerprint): such an entry is never stale, so no worker need share it.
    "versioned": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ginscore-versioned",
                  "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("VERSIONED_CACHE_ENTRIES", "100"))}},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A database outage is logged as one line per failed request, not a traceback each.
    "filters": {"outage_one_line": {"()": "core.logging_filters.DatabaseOutageOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "level": os.environ.get("LOG_LEVEL", "INFO"),
                             "filters": ["outage_one_line"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"filters": ["outage_one_line"]},
                # Its start-up lists every task at INFO; jobs that fail still log at WARNING and above.
                "procrastinate": {"level": os.environ.get("JOBS_LOG_LEVEL", "WARNING")}},
}
