"""Where the CLI keeps the platform address and the agent key.

The key goes to the operating system's keyring when the optional ``keyring`` package is
installed and has a usable backend; otherwise to ``credentials.json`` in the user's
config directory, written atomically with mode 0600 inside a 0700 directory. The
environment (``GAUNTLET_URL``, ``GAUNTLET_API_KEY``) overrides what is stored, for
agents that run in CI or containers.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KEYRING_SERVICE = "gauntlet"
FILE_NAME = "credentials.json"


@dataclass(frozen=True)
class Credentials:
    url: str
    key: str
    source: str  # "environment", "keyring" or the file's path

    @property
    def masked_key(self) -> str:
        return mask(self.key)


class CredentialsError(Exception):
    pass


def mask(key: str) -> str:
    """A key as it may be shown: its public prefix only (``gk_1a2b3c4d_…``)."""
    parts = key.split("_")
    return f"gk_{parts[1]}_…" if len(parts) >= 3 and parts[0] == "gk" else "gk_…"


def config_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ if env is None else env)
    if env.get("GAUNTLET_CONFIG_DIR"):
        return Path(env["GAUNTLET_CONFIG_DIR"])
    if sys.platform == "win32" and env.get("APPDATA"):
        return Path(env["APPDATA"]) / "gauntlet"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "gauntlet"
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME") or Path.home()) / ".config")
    return Path(base) / "gauntlet"


def _keyring() -> Any | None:
    """The keyring module when it is installed and has a real backend, else None."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) < 1:
        return None
    return keyring


class CredentialStore:
    def __init__(self, directory: Path | None = None, *, use_keyring: bool | None = None):
        self.directory = directory or config_dir()
        self.path = self.directory / FILE_NAME
        self._keyring = _keyring() if use_keyring in (None, True) else None
        if use_keyring is True and self._keyring is None:
            raise CredentialsError("No usable keyring: install the 'keyring' extra or store the key in a file.")

    def save(self, *, url: str, key: str) -> str:
        """Store the address and key; returns where the key went."""
        record: dict[str, Any] = {"url": url}
        if self._keyring is not None:
            self._keyring.set_password(KEYRING_SERVICE, url, key)
            record["key_in_keyring"] = True
            where = "the system keyring"
        else:
            record["key"] = key
            where = str(self.path)
        self._write(record)
        return where

    def load(self, env: dict[str, str] | None = None) -> Credentials:
        env = dict(os.environ if env is None else env)
        record = self._read()
        url = env.get("GAUNTLET_URL") or record.get("url")
        if env.get("GAUNTLET_API_KEY"):
            if not url:
                raise CredentialsError("GAUNTLET_API_KEY is set but no address: set GAUNTLET_URL or pass --url.")
            return Credentials(url=url, key=env["GAUNTLET_API_KEY"], source="environment")
        if not record:
            raise CredentialsError("Not logged in: run `gauntlet login` (or set GAUNTLET_URL and GAUNTLET_API_KEY).")
        if record.get("key_in_keyring"):
            key = self._keyring.get_password(KEYRING_SERVICE, record["url"]) if self._keyring else None
            if not key:
                raise CredentialsError("The key is not in the keyring any more: run `gauntlet login` again.")
            return Credentials(url=str(url), key=key, source="keyring")
        return Credentials(url=str(url), key=str(record["key"]), source=str(self.path))

    def delete(self) -> bool:
        record = self._read()
        if not record:
            return False
        if record.get("key_in_keyring") and self._keyring is not None:
            try:
                self._keyring.delete_password(KEYRING_SERVICE, record["url"])
            except Exception:  # noqa: BLE001 - an already missing entry is what we want
                pass
        self.path.unlink(missing_ok=True)
        return True

    def _read(self) -> dict[str, Any]:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise CredentialsError(
                f"{self.path} is readable by other users; run `chmod 600 {self.path}` or `gauntlet login` again."
            )
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CredentialsError(f"{self.path} is not valid JSON: {exc}") from exc
        return data if isinstance(data, dict) else {}

    def _write(self, record: dict[str, Any]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            os.chmod(self.directory, 0o700)
        fd, tmp = tempfile.mkstemp(prefix=".credentials-", dir=self.directory)  # created 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(record, handle)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
