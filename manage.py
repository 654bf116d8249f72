#!/usr/bin/env python
"""Django's command-line utility for Gauntlet.

``platform/`` is a source root (like ``src/``), not a package: a package named
``platform`` would shadow the standard library module that ``uuid`` imports.
"""

import os
import sys
from pathlib import Path


def main() -> None:
    source_root = str(Path(__file__).resolve().parent / "platform")
    if source_root not in sys.path:
        sys.path.insert(1, source_root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gauntlet.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
