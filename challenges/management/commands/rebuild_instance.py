import hashlib
import json
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.audit.from_engine import workspace_archive, write_workspace
from challenges.engine import api as engine
from challenges.selectors.statements import instance_statement
from challenges.services.lookup import instance_find
from challenges.services.workspaces import ARCHIVE_TOP, instance_secrets
from core.crypto import unseal
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Rebuild an instance from its sealed draw and check it is byte-for-byte the stored one."

    def add_arguments(self, parser):
        parser.add_argument("instance")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, instance, json: bool, **options):
        try:
            found = instance_find(ref=instance)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        rebuilt = engine.rebuild(unseal(found.draw_sealed).decode())
        with tempfile.TemporaryDirectory(prefix="ws-") as tmp:
            root = write_workspace(rebuilt, Path(tmp) / "workspace")
            archive = workspace_archive(rebuilt, root, top_dir=ARCHIVE_TOP)
        sealed = instance_secrets(found)
        # Instances sealed before a secrets key existed are compared on the keys they have.
        secrets = {key: value for key, value in rebuilt.secrets_dict().items() if key in sealed}
        checks = {
            "workspace": hashlib.sha256(archive).hexdigest() == found.workspace_sha256,
            "secrets": _canonical(secrets) == _canonical(sealed),
            "fingerprint": _canonical(rebuilt.fingerprint) == _canonical(found.fingerprint),
        }
        statement = instance_statement(found)
        if statement is not None:
            checks["statement"] = rebuilt.statement.encode() == statement.encode()
        identical = all(checks.values())
        if json:
            self.stdout.write(_dumps({"instance": str(found.public_id), "identical": identical, "checks": checks}))
        else:
            for name, ok in checks.items():
                self.stdout.write(f"{name:12} {'identical' if ok else 'DIFFERENT'}")
        if not identical:
            raise CommandError("the rebuilt instance differs from the stored one")


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
