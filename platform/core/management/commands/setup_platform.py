from django.core.management.base import BaseCommand

from core.bootstrap import roles_ensure, schedules_ensure


class Command(BaseCommand):
    help = "Create or update the staff role groups and the recurring task schedules (idempotent)."

    def handle(self, *args, **options):
        for role, count in roles_ensure().items():
            self.stdout.write(f"role {role}: {count} permissions")
        for name in schedules_ensure():
            self.stdout.write(f"schedule {name}")
