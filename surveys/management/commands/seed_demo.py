from django.core.management.base import BaseCommand

from surveys.builder.demo import DEMO_USERNAME, demo_seed


class Command(BaseCommand):
    help = "Create the demo researcher and the published demo survey (idempotent)."

    def handle(self, *args: object, **options: object) -> None:
        survey, password = demo_seed()
        self.stdout.write(f"Demo survey: /s/{survey.slug}/")
        if password is None:
            self.stdout.write(f"Demo researcher: {DEMO_USERNAME} (password unchanged)")
        else:
            self.stdout.write(f"Demo researcher: {DEMO_USERNAME}, password: {password}")
