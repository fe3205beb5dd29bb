"""The audit log moves to its own app (audit), table and all: only Django's idea of which app
owns the model changes here, nothing in the database (audit/migrations/0001_initial.py takes
it over)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_players_entries_series"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
