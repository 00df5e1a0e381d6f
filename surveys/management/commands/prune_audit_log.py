import datetime

from django.core.management.base import BaseCommand, CommandError, CommandParser

from surveys.team.retention import PruneError, audit_prunable, audit_prune


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--before {text}: write the date as YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = (
        "Delete the audit log's events from before a date (the start of that day "
        "in TIME_ZONE), once the retention period your institution chose has "
        "passed (docs/teams.md). Without --yes, only says how many would go."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--before", required=True, help="YYYY-MM-DD")
        parser.add_argument(
            "--yes", action="store_true", help="Delete them; otherwise only count."
        )

    def handle(self, *args: object, **options: object) -> None:
        before = _date(str(options["before"]))
        if not options["yes"]:
            count = audit_prunable(before=before)
            self.stdout.write(
                f"{count} audit event(s) from before {before} would be deleted. "
                "Run again with --yes to delete them."
            )
            return
        try:
            deleted = audit_prune(before=before)
        except PruneError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"{deleted} audit event(s) from before {before} deleted; the pruning "
            "itself is recorded in the log."
        )
