"""Shared set-up for benchmarks that need the platform: a private var dir and database."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench_environment(name: str) -> dict[str, str]:
    """Environment for a benchmark run: fresh var dir, throwaway keys, SQLite unless DATABASE_URL."""
    var = Path(tempfile.mkdtemp(prefix=f"gauntlet-bench-{name}-"))
    (var / "static").mkdir()
    from cryptography.fernet import Fernet

    env = {
        "GAUNTLET_VAR_DIR": str(var),
        "GAUNTLET_SECRET_KEY": secrets.token_urlsafe(50),
        "GAUNTLET_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "GAUNTLET_SECURE": "0",
        "GAUNTLET_API_RATE": "1000000/min",
        "GAUNTLET_LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "gauntlet.settings",
        # Persistent connections, as a production deployment on PostgreSQL would use.
        "GAUNTLET_DB_CONN_MAX_AGE": "60",
    }
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    for path in (str(ROOT), str(ROOT / "platform")):
        if path not in sys.path:
            sys.path.insert(0, path)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
