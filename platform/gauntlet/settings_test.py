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

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: end-to-end tests start a q2 cluster in another process, which
    # must see the same test database (pytest-xdist suffixes the name per worker).
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test_gauntlet.sqlite3")}  # noqa: F405
