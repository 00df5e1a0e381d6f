"""Vacuum the responses often enough that the index of responses not yet
counted stays small.

An estimate run marks the responses it counts (estimation/runs/counting.py);
each marked response leaves a dead entry in the partial index
``response_not_counted`` until the table is vacuumed. PostgreSQL's default
waits for dead rows amounting to a fifth of the table, which at 10^7
responses lets two million dead entries pile up in front of every count of
the responses waiting (the survey list and page, each run's catch-up), and
its vacuum may skip the indexes when the dead rows sit on few pages, as a
run's do. So: vacuum after 10,000 plus 1 % of the rows have changed, and
always clean the indexes. PostgreSQL only; SQLite has no such settings.
"""

from django.db import migrations

SETTINGS = (
    "autovacuum_vacuum_scale_factor = 0.01, "
    "autovacuum_vacuum_threshold = 10000, "
    "vacuum_index_cleanup = on"
)


def apply(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE surveys_response SET ({SETTINGS})")


def revert(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE surveys_response RESET (autovacuum_vacuum_scale_factor, "
            "autovacuum_vacuum_threshold, vacuum_index_cleanup)"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("surveys", "0015_count_questions"),
    ]

    operations = [migrations.RunPython(apply, revert)]
