"""The engine's states gained fields (docs/rules-engine.md, "The lag and the first breaker"
and reading 6a): `first_breaker` and `lag` in every discipline, `shelf` and `last_penalty` in
the free pyramid. A stored state without them could not take its next event, so each match
with a state gets them here, and its first breaker stays what it was: no stored match has a
lag event, so its first breaker is its ruleset's `first_break`.

A match still being played is replayed from its log (the log is the truth; a foul on a head
start is now the debt the regulation makes it). A finished one keeps its figures: its state
only gains the fields, with the shelves as the log's last rack left them unknown (0)."""

from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import rules

CHUNK = 500
FINISHED = ("finished", "walkover", "void")


def _defaults(state: dict[str, Any], ruleset: dict[str, Any]) -> dict[str, Any]:
    first = ruleset.get("first_break") if ruleset.get("first_break") in ("a", "b") else "a"
    out = dict(state)
    out.setdefault("first_breaker", first)
    out.setdefault("lag", None)
    if out.get("discipline") == "free_pyramid":
        out.setdefault("shelf", {"a": 0, "b": 0})
        out.setdefault("last_penalty", None)
    return out


def add_fields(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor | None) -> None:
    Match = apps.get_model("matches", "Match")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    matches = Match.objects.exclude(state={}).select_related("tournament").order_by("pk")
    changed = []
    for match in matches.iterator(chunk_size=CHUNK):
        state = match.state or {}
        if not isinstance(state, dict) or "first_breaker" in state:
            continue
        ruleset = match.ruleset or match.tournament.ruleset or {}
        new = None
        if match.status not in FINISHED and not state.get("finished"):
            payloads = list(
                MatchEvent.objects.filter(match=match, kind="event", undone=False)
                .order_by("seq")
                .values_list("payload", flat=True)
            )
            try:
                new = rules.replay(ruleset, payloads)
            except rules.RuleError:
                new = None
        match.state = new if new is not None else _defaults(state, ruleset)
        changed.append(match)
        if len(changed) >= CHUNK:
            Match.objects.bulk_update(changed, ["state"])
            changed = []
    if changed:
        Match.objects.bulk_update(changed, ["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_event_log_is_the_audit_of_balls"),
        ("tournaments", "0013_break_by_lag"),
    ]

    operations = [migrations.RunPython(add_fields, migrations.RunPython.noop)]
