"""WSGI entry point. ``platform/`` is a source root, so it is put on the path here."""

import os
import sys
from pathlib import Path

_SOURCE_ROOT = str(Path(__file__).resolve().parents[1])
if _SOURCE_ROOT not in sys.path:
    sys.path.insert(0, _SOURCE_ROOT)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gauntlet.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
