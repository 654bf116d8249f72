import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.audit import AuditError
from challenges.services.audit import leak_audit_instance, leak_audit_path
from challenges.services.lookup import instance_find
from core.errors import ApplicationError


class Command(BaseCommand):
    help = ("Leak-audit an instance's workspace, or (--path) a directory or workspace archive an agent received. "
            "Exits 1 when there are findings, 2 on bad input.")

    def add_arguments(self, parser):
        parser.add_argument("instance", nargs="?", help="instance number or id")
        parser.add_argument("--instance", dest="instance_opt", help="the instance whose secrets define the audit")
        parser.add_argument("--path", help="a directory or .tar.gz to audit instead of the stored workspace")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, instance, instance_opt, path, json: bool, **options):
        ref = instance or instance_opt
        if not ref:
            raise CommandError("name the instance (positionally or with --instance)", returncode=2)
        try:
            found = instance_find(ref=ref)
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        try:
            if path:
                target = Path(path)
                if not target.exists():
                    raise CommandError(f"{path} does not exist or cannot be read", returncode=2)
                report = leak_audit_path(instance=found, path=target)
            else:
                report = leak_audit_instance(instance=found)
        except AuditError as exc:
            raise CommandError(f"{exc.code}: {exc.message}", returncode=2) from exc
        if json:
            self.stdout.write(_dumps({"instance": str(found.public_id), **report.to_dict()}))
        else:
            for finding in report.findings:
                self.stdout.write(f"{finding.check:12} {finding.code:24} {finding.location}: {finding.message}")
            self.stdout.write(f"{'clean' if report.passed else 'FINDINGS'}: "
                              + ", ".join(f"{name}={count}" for name, count in report.counts.items()))
        if not report.passed:
            raise CommandError(f"{len(report.findings)} finding(s)", returncode=1)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
