"""Set up and run the whole demo: keys, migrations, demo data, web server and worker."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.core.management.utils import get_random_secret_key

from core.crypto import generate_key


def _ensure_secret(path: Path, make) -> str:
    """Read a local secret file, creating it with mode 0600 on first use."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(make())
    os.chmod(path, 0o600)
    return path.read_text().strip()


class Command(BaseCommand):
    help = "Prepare a local demo (keys in var/, migrate, demo data) and run web + worker until Ctrl-C."

    # This command only writes the local keys and starts the real processes; it may itself
    # run with GAUNTLET_DEBUG=1 (keys do not exist yet), the processes it starts do not.

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-serve", action="store_true", help="prepare everything but do not start servers")

    def handle(self, *args, addr: str, no_serve: bool, **options):
        env = server_environment(os.environ, settings.VAR_DIR)
        _ensure_sandbox_user(self.stdout)
        from challenges.sandbox import check_available

        reason = check_available()
        if reason and "GAUNTLET_SANDBOX_ALLOW_UNSAFE" not in env:
            self.stderr.write(
                f"WARNING: the sandbox cannot isolate challenge oracles on this machine:\n  {reason}\n"
                "The demo runs them with whatever isolation remains (see SECURITY.md, section Sandbox).\n"
            )
            env["GAUNTLET_SANDBOX_ALLOW_UNSAFE"] = "1"
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"], ["demo_seed"]):
            self.stdout.write(f"$ manage.py {' '.join(step)}")
            self.stdout.flush()
            subprocess.run([*manage, *step], env=env, check=True)
        if no_serve:
            return
        server = subprocess.Popen([*manage, "serve", "--addr", addr], env=env)
        try:
            if _wait_for_port(addr, timeout=60) and not _has_simulated_bout():
                # With the worker up, the simulated agents' submissions are evaluated as they arrive.
                self.stdout.write("$ manage.py simulate_bout --agents 6 (against the running server)")
                self.stdout.flush()
                subprocess.run([*manage, "simulate_bout", "--agents", "6", "--time-scale", "0.01", "--backoff", "60",
                                "--base-url", f"http://{addr}"], env=env, check=False)
            server.wait()
        except KeyboardInterrupt:
            # A terminal's Ctrl-C reaches the server too; a signal sent to this process alone must.
            server.send_signal(signal.SIGINT)
            server.wait()


def _ensure_sandbox_user(out) -> None:
    """As root, create the unprivileged user code under test runs as (what .ci/run does)."""
    from challenges.sandbox.identity import CREATE_USER_HINT, DEFAULT_USER, USER_SETTING

    if os.geteuid() != 0 or os.environ.get(USER_SETTING) or not shutil.which("useradd"):
        return
    if subprocess.run(["getent", "passwd", DEFAULT_USER], capture_output=True).returncode == 0:
        return
    out.write(f"$ {CREATE_USER_HINT}")
    subprocess.run(CREATE_USER_HINT.split(), check=False)


def server_environment(environ, var: Path) -> dict[str, str]:
    """The environment of the processes the demo starts: the production configuration minus TLS.

    DEBUG is always off for them, whatever the demo command itself runs with: the web server
    is what agents talk to, and no debug page or URL map may ever reach an agent.
    """
    env = dict(environ)
    env.setdefault("GAUNTLET_SECRET_KEY", _ensure_secret(var / "secret_key", get_random_secret_key))
    env.setdefault("GAUNTLET_ENCRYPTION_KEYS", _ensure_secret(var / "encryption_keys", generate_key))
    env["GAUNTLET_DEBUG"] = "0"
    env.setdefault("GAUNTLET_SECURE", "0")  # a laptop has no TLS
    return env


def _wait_for_port(addr: str, *, timeout: float) -> bool:
    host, _, port = addr.rpartition(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.5)
    return False


def _has_simulated_bout() -> bool:
    from simulation.models import SimulationRun

    return SimulationRun.objects.filter(bout__state="active").exists()
