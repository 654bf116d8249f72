"""End-to-end fixtures: a real q2 cluster process and a real headless browser."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}{port}/{db['NAME']}"


@pytest.fixture
def q_cluster(transactional_db):
    """A django-q2 cluster in its own process, on the test database and this worker's queue."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "gauntlet.settings_test",
        "DATABASE_URL": _database_url(),
        "GAUNTLET_VAR_DIR": str(settings.VAR_DIR),
        "GAUNTLET_Q_WORKERS": "1",
    }
    for name in ("REDIS_URL", "PYTEST_XDIST_WORKER"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "qcluster"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()



def chromium(*, console: bool = False):
    """Headless Chromium; with ``console`` the page's console messages can be read
    (``driver.get_log("browser")``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ):
        options.add_argument(flag)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.implicitly_wait(5)
    return driver


@pytest.fixture
def browser():
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def chrome():
    """One Chromium per test module, console readable: page tests share it to stay fast
    (each test sets its own viewport and signs in as it needs)."""
    driver = chromium(console=True)
    # Explicit waits only: an implicit one makes every "is absent" check cost its timeout.
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
