"""Run the web server (gunicorn) and a django-q2 cluster together until Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web server and a task-queue cluster side by side; stop both on Ctrl-C or if either exits."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port for the web server")
        parser.add_argument("--workers", type=int, default=2, help="web server worker processes")

    def handle(self, *args, addr: str, **options):
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        web = [
            sys.executable, "-m", "gunicorn", "gauntlet.wsgi:application", "--bind", addr,
            "--workers", str(options["workers"]), "--threads", "4", "--timeout", "120", "--keep-alive", "75",
            "--chdir", str(settings.BASE_DIR / "platform"), "--access-logfile", "-",
        ]
        children = {
            "web": subprocess.Popen(web, env=os.environ.copy()),
            "worker": subprocess.Popen([*manage, "qcluster"], env=os.environ.copy()),
        }
        base = f"http://{addr}"
        self.stdout.write(
            "\nGauntlet is starting:\n"
            f"  portal        {base}/\n"
            f"  staff admin   {base}/admin/\n"
            f"  API docs      {base}/api/docs/\n"
            f"  OpenAPI       {base}/api/schema/\n"
            f"  health        {base}/api/v1/health\n"
            "Press Ctrl-C to stop.\n"
        )
        self.stdout.flush()
        stopping = False

        def stop(signum=None, frame=None):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        exit_code = 0
        try:
            while not stopping:
                for name, child in children.items():
                    if child.poll() is not None:
                        self.stderr.write(f"{name} exited with status {child.returncode}; stopping the other.")
                        exit_code = child.returncode or 1
                        stopping = True
                time.sleep(0.5)
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for child in children.values():
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        if exit_code:
            sys.exit(exit_code)
