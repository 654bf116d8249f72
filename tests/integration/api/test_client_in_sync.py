"""The client's generated layer matches the API this repository serves.

If this fails, the API changed: run `python clients/python/tools/regenerate.py` and
commit the result (and bump the client's version when the change is visible to users).
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_generated_client_matches_the_openapi_description():
    result = subprocess.run([sys.executable, str(ROOT / "clients/python/tools/regenerate.py"), "--check"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
