from django.core.management.base import BaseCommand, CommandError

from surveys.respond.arrival_order import ArrivalOrderError, arrival_order_forget


class Command(BaseCommand):
    help = (
        "After a study: rewrite the response, answer and access ledger tables so "
        "that no row's "
        "place or writing transaction keeps the order in which responses "
        "arrived (docs/methodology.md). Locks the tables while it runs."
    )

    def handle(self, *args: object, **options: object) -> None:
        try:
            rewritten = arrival_order_forget()
        except ArrivalOrderError as error:
            raise CommandError(str(error)) from None
        for table in rewritten:
            self.stdout.write(
                f"{table.table}: {table.rows:,} rows rewritten in one transaction "
                f"({table.writers} writing transaction(s) left), laid out by "
                "their keys (random ids; a bucket's keyed digest)."
            )
        self.stdout.write(
            "Each access ledger's pool of recent credentials moved into its "
            "buckets; old versions of the rows removed."
        )
