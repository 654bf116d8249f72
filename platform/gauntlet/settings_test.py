"""Test settings: the base module with test-only secrets and fast password hashing.

The base module is imported unchanged, so tests exercise the same environment-driven
configuration (DATABASE_URL, REDIS_URL) that production uses.
"""

import os

os.environ.setdefault("GAUNTLET_SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
# A fixed Fernet key so sealed fixtures are reproducible inside one test run; never used elsewhere.
os.environ.setdefault("GAUNTLET_ENCRYPTION_KEYS", "pk0dLd0cFYtKo6eQH7o1kwvPXDG1dJ3p0zVfJb5rC4s=")
os.environ.setdefault("GAUNTLET_SECURE", "0")

from gauntlet.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405
WHITENOISE_USE_FINDERS = True
# Tests serve static files through the finders; an existing (empty) root keeps whitenoise quiet.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: end-to-end tests start a q2 cluster in another process, which
    # must see the same test database. One file per test process, so parallel runs and
    # pytest-xdist workers never share one.
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_gauntlet_{os.getpid()}.sqlite3")}  # noqa: F405

# Parallel test workers must not share one broker queue (Redis keys are per cluster name).
if os.environ.get("PYTEST_XDIST_WORKER"):
    Q_CLUSTER["name"] = f"{Q_CLUSTER['name']}-{os.environ['PYTEST_XDIST_WORKER']}"  # noqa: F405

# The cache is cleared around tests; with Redis, each parallel worker gets its own database
# number so one worker's clear never wipes another's throttle counters.
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER"):  # noqa: F405
    _worker_index = int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw") or 0)
    CACHES["default"]["LOCATION"] = REDIS_URL.rsplit("/", 1)[0] + f"/{1 + _worker_index}"  # noqa: F405
