from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from rest_framework.fields import DateTimeField

RECENT = 10  # matches.selectors.LAST_EVENTS when this was written


def fill_recent_log(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Each match's newest log entries, as matches.selectors.log_entry_data shows them."""
    Match = apps.get_model("matches", "Match")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    timestamp = DateTimeField()
    for match in Match.objects.filter(version__gt=0).only("pk").iterator():
        entries = list(MatchEvent.objects.filter(match_id=match.pk).order_by("-seq")[:RECENT])
        match.recent_log = [
            {
                "seq": e.seq,
                "kind": e.kind,
                "event": e.payload,
                "undone": e.undone,
                "undoes": e.payload.get("seq") if e.kind == "undo" else None,
                "source": e.source,
                "created_at": timestamp.to_representation(e.created_at),
            }
            for e in reversed(entries)
        ]
        match.save(update_fields=["recent_log"])


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_one_live_match_per_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="recent_log",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.RunPython(fill_recent_log, migrations.RunPython.noop, elidable=True),
    ]
