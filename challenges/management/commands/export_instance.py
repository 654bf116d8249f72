import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.services.export import instance_export
from challenges.services.lookup import instance_find
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Export an instance: DIR/workspace/ is exactly what an agent receives; --with-secrets adds the rest."

    def add_arguments(self, parser):
        parser.add_argument("instance")
        parser.add_argument("dir")
        parser.add_argument("--with-secrets", action="store_true")

    def handle(self, *args, instance, dir, with_secrets, **options):
        try:
            found = instance_find(ref=instance)
            written = instance_export(instance=found, dest=Path(dir), with_secrets=with_secrets, by=None,
                                      actor_label="manage.py export_instance")
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(json.dumps({"instance": str(found.public_id), "written": written}))
