from django.core.management.base import BaseCommand, CommandError, CommandParser

from estimation.runs.counting import (
    counts_check,
    counts_recount,
    surveys_with_responses,
)
from surveys.models import Survey


class Command(BaseCommand):
    help = (
        "Rebuild the saved report counts that estimate runs read from every "
        "stored answer (estimation/runs/counting.py), for one survey or all. "
        "With --check, only compare them with a fresh count and say where they "
        "differ; the exit status is 1 if any does."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--survey", type=int, help="Only this survey's id.")
        parser.add_argument(
            "--check", action="store_true", help="Compare only; change nothing."
        )

    def handle(self, *args: object, **options: object) -> None:
        surveys = surveys_with_responses().order_by("pk")
        if options["survey"] is not None:
            surveys = Survey.objects.filter(pk=options["survey"])
            if not surveys.exists():
                raise CommandError(f"--survey {options['survey']}: no such survey.")
        differing = 0
        for survey in surveys:
            if options["check"]:
                check = counts_check(survey)
                differing += not check.agrees
                verdict = (
                    "agree"
                    if check.agrees
                    else f"differ in {len(check.differences)} cell(s), "
                    f"responses {check.responses_saved} saved against "
                    f"{check.responses_fresh} counted"
                )
                self.stdout.write(
                    f"survey {survey.pk}: {check.cells} saved cells {verdict}"
                )
            else:
                responses = counts_recount(survey)
                self.stdout.write(
                    f"survey {survey.pk}: recounted, {responses} responses"
                )
        if differing:
            raise SystemExit(1)
