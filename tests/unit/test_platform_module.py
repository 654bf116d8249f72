"""``platform/`` is a source root: the standard library's ``platform`` must still work."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_stdlib_platform_works_under_pytest():
    import platform
    import uuid

    assert platform.system() == "Linux"
    assert hasattr(platform, "python_version")
    assert uuid.uuid4().version == 4


def test_stdlib_platform_works_under_manage_py():
    code = "import uuid, platform; print(platform.system(), uuid.uuid4().version, platform.__file__)"
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "GAUNTLET_DEBUG": "1", "GAUNTLET_VAR_DIR": str(ROOT / "var")},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    system, version, path = result.stdout.strip().splitlines()[-1].split()
    assert (system, version) == ("Linux", "4")
    assert not path.startswith(str(ROOT / "platform"))
