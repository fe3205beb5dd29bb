"""The event log is the audit of balls: a ball, an undo and a walkover's forfeit write no audit
entry any more. The log keeps who entered each entry by name and whether it was imported; the
audit entries written per ball until now give their names to their log entries and go (the
audit views read both, tournaments.selectors.AuditLog: kept, they would show every ball twice).
An entry whose log entry is not found stays."""

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

PER_BALL = ("match.event", "match.undo")
CHUNK = 2000


def move_per_ball_entries(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    AuditEntry = apps.get_model("audit", "AuditEntry")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    rows = (
        AuditEntry.objects.filter(action__in=PER_BALL, match__isnull=False)
        .order_by("pk")
        .values_list("pk", "match_id", "data", "actor_name", "imported")
    )
    chunk: list[tuple[Any, ...]] = []
    for row in rows.iterator(chunk_size=CHUNK):
        chunk.append(row)
        if len(chunk) == CHUNK:
            _move(chunk, AuditEntry, MatchEvent)
            chunk = []
    if chunk:
        _move(chunk, AuditEntry, MatchEvent)


# Historical models, built from the migration state: there is no class to name their fields by.
def _move(chunk: list[tuple[Any, ...]], AuditEntry: type[Any], MatchEvent: type[Any]) -> None:
    wanted: dict[tuple[int, int], tuple[int, str, bool]] = {}
    for pk, match_id, data, actor_name, imported in chunk:
        seq = (data or {}).get("seq")
        if isinstance(seq, int):
            wanted[(match_id, seq)] = (pk, actor_name, imported)
    events = MatchEvent.objects.filter(
        match_id__in={match_id for match_id, _ in wanted},
        seq__in={seq for _, seq in wanted},
    )
    moved, changed = [], []
    for event in events:
        found = wanted.get((event.match_id, event.seq))
        if found is None:
            continue
        pk, actor_name, imported = found
        event.actor_name = "" if actor_name == "system" else actor_name
        event.imported = imported
        changed.append(event)
        moved.append(pk)
    MatchEvent.objects.bulk_update(changed, ["actor_name", "imported"])
    AuditEntry.objects.filter(pk__in=moved).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_match_result_correction"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchevent",
            name="actor_name",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AddField(
            model_name="matchevent",
            name="imported",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(move_per_ball_entries, migrations.RunPython.noop),
    ]
