"""Gauntlet settings: one base module, every deployment choice read from the environment.

Environment variables (see README "Configuration"):
    GAUNTLET_DEBUG              1/0, default 0. Development conveniences only.
    GAUNTLET_SECRET_KEY         required when DEBUG is off.
    GAUNTLET_ENCRYPTION_KEYS    comma-separated Fernet keys, newest first; required when DEBUG is off.
    GAUNTLET_ALLOWED_HOSTS      comma-separated, default "localhost,127.0.0.1,[::1]".
    GAUNTLET_VAR_DIR            where the SQLite file, keys and workspaces live; default <repo>/var.
    DATABASE_URL                default sqlite:///<var>/gauntlet.sqlite3 (WAL, busy timeout).
    REDIS_URL                   when set: django-q2 broker and the cache use Redis.
    GAUNTLET_API_RATE           per-agent API throttle, default "120/min".
    GAUNTLET_SECURE             1 behind TLS: secure cookies, HSTS, SSL redirect.
    GAUNTLET_MAX_BODY_BYTES     largest request body, default 2 MiB (API: 413 before reading it).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from gauntlet.env import env_bool, env_int, env_list, env_str, secret_from_env_or_file

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(env_str("GAUNTLET_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("GAUNTLET_DEBUG", False)

SECRET_KEY = secret_from_env_or_file("GAUNTLET_SECRET_KEY", debug=DEBUG, fallback_file=VAR_DIR / "secret_key")
if SECRET_KEY is None:
    # DEBUG without a key file: an ephemeral key, so sessions simply do not survive restarts.
    from django.core.management.utils import get_random_secret_key

    SECRET_KEY = get_random_secret_key()

_encryption_keys = secret_from_env_or_file(
    "GAUNTLET_ENCRYPTION_KEYS", debug=DEBUG, fallback_file=VAR_DIR / "encryption_keys"
)
GAUNTLET_ENCRYPTION_KEYS: list[str] = [k.strip() for k in (_encryption_keys or "").split(",") if k.strip()]

ALLOWED_HOSTS = env_list("GAUNTLET_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("GAUNTLET_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "core.admin_site.GauntletAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "core",
    "competition",
    "api",
    "portal",
    "challenges",
    "detection",
    # After challenges: its demo data (a simulated bout) needs the generated pool.
    "simulation",
]

MIDDLEWARE = [
    # First: the API's body cap and JSON error contract wrap everything below it.
    "api.middleware.ApiEdgeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# The largest request body accepted; the API refuses a larger Content-Length before reading.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("GAUNTLET_MAX_BODY_BYTES", 2 * 1024 * 1024)

ROOT_URLCONF = "gauntlet.urls"
WSGI_APPLICATION = "gauntlet.wsgi.application"
ASGI_APPLICATION = "gauntlet.asgi.application"

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

# --- Database -------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'gauntlet.sqlite3'}"),
        conn_max_age=env_int("GAUNTLET_DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # WAL lets the web process read while the worker writes; the busy timeout makes a
    # writer wait for the lock instead of failing at once; IMMEDIATE avoids deadlocks
    # where two readers both try to upgrade to writers.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": env_int("GAUNTLET_SQLITE_TIMEOUT", 20),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and task queue -------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "gauntlet"}}

_q_workers = env_int("GAUNTLET_Q_WORKERS", 2)
Q_CLUSTER = {
    "name": env_str("GAUNTLET_Q_NAME", "gauntlet"),
    "workers": _q_workers,
    # A task may run for `timeout` seconds; the ORM broker re-offers it after `retry` seconds,
    # which must be longer, or a slow task would be handed to a second worker while alive.
    # Redis hands a task out once and never again: a task lost with its worker is recovered
    # from the database by the evaluation reaper (competition.services.evaluation).
    "timeout": env_int("GAUNTLET_Q_TIMEOUT", 300),
    "retry": env_int("GAUNTLET_Q_RETRY", 360),
    "max_attempts": env_int("GAUNTLET_Q_MAX_ATTEMPTS", 3),
    # Tasks a cluster takes from the broker ahead of its workers live in its memory, and a
    # crash loses them (the reaper re-queues evaluations after its bound): one waiting task
    # per worker keeps the rest in the broker, for this cluster's replacement or another.
    "queue_limit": _q_workers,
    "bulk": 1,
    "save_limit": 1000,
    "catch_up": False,
    "label": "Task queue",
}
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
else:
    Q_CLUSTER["orm"] = "default"
    Q_CLUSTER["poll"] = 0.5

GAUNTLET_HEARTBEAT_MINUTES = env_int("GAUNTLET_HEARTBEAT_MINUTES", 1)

# --- Auth -----------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "portal:login"
LOGIN_REDIRECT_URL = "portal:home"
LOGOUT_REDIRECT_URL = "portal:home"

# --- I18N / time ----------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Dates as ISO and every time with its zone (gauntlet/formats/en/formats.py).
FORMAT_MODULE_PATH = ["gauntlet.formats"]

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "core.staticfinders.PlotlyFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.AgentKeyAuthentication"],
    # Deny by default: every view must say who may call it.
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.DenyAll"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.AgentRateThrottle", "api.throttling.AnonymousRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "agent": env_str("GAUNTLET_API_RATE", "120/min"),
        "anon": env_str("GAUNTLET_API_ANON_RATE", "60/min"),
    },
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Gauntlet agent API",
    # The description (workflow, errors, versions) comes from platform/api/overview.md.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.describe_api"],
    "VERSION": "1.2.0",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
}

# --- Security -------------------------------------------------------------------------
SECURE = env_bool("GAUNTLET_SECURE", not DEBUG)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_HSTS_SECONDS = env_int("GAUNTLET_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("GAUNTLET_LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# --- Sandbox --------------------------------------------------------------------------
# Without bubblewrap the platform refuses to run oracles. This explicit development
# switch runs them with rlimits only, and every run logs a loud warning.
GAUNTLET_SANDBOX_ALLOW_UNSAFE = env_bool("GAUNTLET_SANDBOX_ALLOW_UNSAFE", False)
