from argparse import ArgumentParser

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from surveys.builder.demo import DEMO_USERNAME, demo_seed
from surveys.builder.demo_answers import DEMO_RESPONDENTS


class Command(BaseCommand):
    help = (
        "Create the demo researcher and the published demo survey, answered by "
        "simulated respondents (idempotent)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--respondents",
            type=int,
            default=DEMO_RESPONDENTS,
            help="Simulated respondents to answer the demo with, once "
            f"(default {DEMO_RESPONDENTS}; 0 for none).",
        )
        parser.add_argument(
            "--language",
            default="en",
            choices=[code for code, _ in settings.LANGUAGES],
            help="The language a new demo survey is written in (default en).",
        )

    def handle(self, *args: object, **options: object) -> None:
        respondents = options["respondents"]
        assert isinstance(respondents, int)
        language = options["language"]
        assert isinstance(language, str)
        existed = get_user_model().objects.filter(username=DEMO_USERNAME).exists()
        survey, password = demo_seed(respondents=respondents, language=language)
        self.stdout.write(f"Demo survey: /s/{survey.slug}/")
        if survey.simulation:
            self.stdout.write(
                f"Simulated respondents: {survey.simulation['respondents']} "
                f"(results: /surveys/{survey.pk}/results/)"
            )
        if password is None:
            self.stdout.write(f"Demo researcher: {DEMO_USERNAME} (password unchanged)")
        elif existed:
            self.stdout.write(
                f"Demo researcher: {DEMO_USERNAME} (password set from DEMO_PASSWORD)"
            )
        else:
            self.stdout.write(f"Demo researcher: {DEMO_USERNAME}, password: {password}")
