"""Export a whole tournament to one JSON document, and import it into another database.

The document carries the tournament, its players (with their rating history in it), registrations,
tables, the bracket (matches and their links), every match's event log and the audit log. Primary
keys are remapped on import; links between rows are kept by the exported keys. Logins are not
exported; organisers and referees are re-attached by username and must exist here. An import
first checks the whole document (tournaments.exchange_validation) and writes nothing if any
check fails; audit entries it brings are marked `imported`.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import DatabaseError, models, transaction
from django.utils.dateparse import parse_date, parse_datetime

from audit.models import AuditEntry
from matches.models import Match, MatchEvent, Table
from matches.selectors import match_recent_log
from tournaments.access import REFEREE_GROUP
from tournaments.exchange_validation import FORMAT, NOT_PLAIN, VERSION, document_problems
from tournaments.images import data_uri_reencode
from tournaments.models import Player, RatingChange, Registration, Tournament
from tournaments.roles import roles_ensure

if TYPE_CHECKING:
    from config.types import Actor


class ImportError_(ValueError):
    """The document cannot be imported; `problems` says why, one line each; nothing is written."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _plain(instance: models.Model) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        if field.name in NOT_PLAIN:
            continue
        value = getattr(instance, field.attname)
        if isinstance(value, Decimal):
            value = str(value)
        elif isinstance(value, dt.datetime | dt.date):
            value = value.isoformat()
        out[field.name] = value
    return out


def _ball_names(rows: list[Any]) -> tuple[list[Any], dict[tuple[Any, Any], str]]:
    """The audit rows to bring in, and the names of who entered each ball, by (match, seq),
    from the audit entries per ball of an older document (not brought in)."""
    kept, names = [], {}
    for row in rows:
        data = row.get("data")
        if row.get("action") in BALL_ACTIONS and row.get("match") and isinstance(data, dict):
            name = row.get("actor_name") or ""
            names[(row["match"], data.get("seq"))] = "" if name == "system" else name
        else:
            kept.append(row)
    return kept, names


BALL_ACTIONS = ("match.event", "match.undo")


def _restore(model: type[models.Model], data: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.name in NOT_PLAIN or field.name not in data:
            continue
        value = data[field.name]
        if value is not None:
            if isinstance(field, models.DateTimeField):
                value = parse_datetime(value)
            elif isinstance(field, models.DateField):
                value = parse_date(value)
            elif isinstance(field, models.DecimalField):
                value = Decimal(value)
        values[field.name] = value
    return values


def _keep_created_at(objects: list[Any], rows: list[dict[str, Any]]) -> None:
    """auto_now_add stamps the import time; the log must keep when things really happened."""
    changed = []
    for obj, row in zip(objects, rows, strict=True):
        if row.get("created_at"):
            obj.created_at = parse_datetime(row["created_at"])
            changed.append(obj)
    if changed:
        type(objects[0]).objects.bulk_update(changed, ["created_at"])


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    registrations = list(tournament.registrations.select_related("player"))
    matches = list(tournament.matches.all())
    player_ids = {r.player_id for r in registrations}
    for match in matches:
        player_ids.update(p for p in (match.player_a_id, match.player_b_id) if p)
    players = {p.pk: p for p in Player.objects.filter(pk__in=player_ids)}
    # Looked up by nullable keys (a link, a table, an undone event): None finds nothing.
    keys: dict[int | None, str] = {m.pk: m.key for m in matches}
    tables: dict[int | None, int] = {t.pk: t.number for t in tournament.tables.all()}
    events = MatchEvent.objects.filter(match__tournament=tournament).order_by("match_id", "seq")
    seq_of: dict[int | None, int] = {e.pk: e.seq for e in events}
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            **_plain(tournament),
            "organisers": sorted(tournament.organisers.values_list("username", flat=True)),
            "referees": sorted(tournament.referees.values_list("username", flat=True)),
        },
        "players": [{"ref": pk, **_plain(p)} for pk, p in sorted(players.items())],
        "registrations": [{"player": r.player_id, **_plain(r)} for r in registrations],
        "tables": [_plain(t) for t in tournament.tables.all()],
        "matches": [
            {
                **_plain(m),
                "player_a": m.player_a_id,
                "player_b": m.player_b_id,
                "winner": m.winner_id,
                "loser": m.loser_id,
                "winner_to": keys.get(m.winner_to_id),
                "loser_to": keys.get(m.loser_to_id),
                "table": tables.get(m.table_id),
            }
            for m in matches
        ],
        "events": [
            {"match": keys[e.match_id], "undoes": seq_of.get(e.undoes_id), **_plain(e)}
            for e in events
        ],
        "rating_changes": [
            {
                "player": rc.player_id,
                "opponent": rc.opponent_id,
                "match": keys.get(rc.match_id),
                **_plain(rc),
            }
            for rc in RatingChange.objects.filter(tournament=tournament)
        ],
        "audit": [
            {
                "match": keys.get(a.match_id),
                "player": a.player_id if a.player_id in players else None,
                **_plain(a),
            }
            for a in AuditEntry.objects.filter(tournament=tournament).order_by("id")
        ],
    }


def import_logins() -> dict[str, frozenset[str]]:
    """Active users of this database by username, with their groups: what the organisers and
    referees of a document are looked up in."""
    logins: dict[str, set[str]] = {}
    rows = get_user_model().objects.filter(is_active=True).values_list("username", "groups__name")
    for username, group in rows:
        logins.setdefault(username, set()).update({group} - {None})
    return {username: frozenset(groups) for username, groups in logins.items()}


@transaction.atomic
def tournament_import(*, document: Any, actor: Actor | None = None) -> Tournament:
    """Create the tournament of `document` with new primary keys; all or nothing. Raises
    ImportError_ with every problem found when the document is not importable."""
    logins = import_logins()
    problems = document_problems(document=document, logins=logins)
    if problems:
        raise ImportError_(problems)
    data = document["tournament"]
    organisers, referees = data.get("organisers") or [], data.get("referees") or []
    named = get_user_model().objects.filter(username__in={*organisers, *referees}, is_active=True)
    users = {u.username: u for u in named}
    try:
        settings = _restore(Tournament, data)
        if settings.get("organiser_logo"):
            # Pixels only, drawn again, as every image that enters (validated above).
            settings["organiser_logo"] = data_uri_reencode(settings["organiser_logo"])
        tournament = Tournament.objects.create(**settings)
        tournament.organisers.set([users[n] for n in organisers])
        if actor is not None and actor.is_authenticated:
            tournament.organisers.add(actor)
        referee_users = [users[n] for n in referees]
        tournament.referees.set(referee_users)
        if referee_users:
            # As tournament_referee_add: a named referee is in the referee group.
            roles_ensure()
            Group.objects.get(name=REFEREE_GROUP).user_set.add(*referee_users)

        player_map: dict[Any, Player] = {}
        for row in document["players"]:
            player_map[row["ref"]] = Player.objects.create(**_restore(Player, row))

        registrations = Registration.objects.bulk_create(
            Registration(
                tournament=tournament,
                player=player_map[row["player"]],
                **_restore(Registration, row),
            )
            for row in document["registrations"]
        )
        _keep_created_at(registrations, document["registrations"])
        table_map = {
            t.number: t
            for t in Table.objects.bulk_create(
                Table(tournament=tournament, **_restore(Table, row)) for row in document["tables"]
            )
        }

        def player(ref: Any) -> Player | None:
            return player_map[ref] if ref is not None else None

        created = Match.objects.bulk_create(
            Match(
                tournament=tournament,
                player_a=player(row["player_a"]),
                player_b=player(row["player_b"]),
                winner=player(row["winner"]),
                loser=player(row["loser"]),
                table=table_map.get(row["table"]),
                **_restore(Match, row),
            )
            for row in document["matches"]
        )
        match_map = {m.key: m for m in created}
        for row in document["matches"]:
            match = match_map[row["key"]]
            match.winner_to = match_map.get(row["winner_to"]) if row["winner_to"] else None
            match.loser_to = match_map.get(row["loser_to"]) if row["loser_to"] else None
        Match.objects.bulk_update(created, ["winner_to", "loser_to"])

        # A document written before the log was the audit of balls has an audit entry per
        # ball: it gives its name to the log entry and is not brought in (it would show the
        # ball twice, tournaments.selectors.audit.AuditLog).
        audit_rows, ball_names = _ball_names(document.get("audit", []))
        events = MatchEvent.objects.bulk_create(
            MatchEvent(
                match=match_map[row["match"]],
                **{
                    **_restore(MatchEvent, row),
                    "actor_name": row.get("actor_name")
                    or ball_names.get((row["match"], row.get("seq")), ""),
                    "imported": True,
                },
            )
            for row in document["events"]
        )
        by_seq = {(e.match_id, e.seq): e for e in events}
        linked = []
        for event, row in zip(events, document["events"], strict=True):
            if row.get("undoes") is not None:
                event.undoes = by_seq[(event.match_id, row["undoes"])]
                linked.append(event)
        MatchEvent.objects.bulk_update(linked, ["undoes"])
        _keep_created_at(events, document["events"])
        played = [m for m in created if m.version]
        for match in played:
            match.recent_log = match_recent_log(match=match)
        Match.objects.bulk_update(played, ["recent_log"])

        rating_changes = RatingChange.objects.bulk_create(
            RatingChange(
                tournament=tournament,
                player=player_map[row["player"]],
                opponent=player(row.get("opponent")),
                match=match_map.get(row["match"]) if row.get("match") else None,
                **_restore(RatingChange, row),
            )
            for row in document.get("rating_changes", [])
        )
        _keep_created_at(rating_changes, document.get("rating_changes", []))
        audit = AuditEntry.objects.bulk_create(
            AuditEntry(
                tournament=tournament,
                match=match_map.get(row["match"]) if row.get("match") else None,
                player=player_map.get(row.get("player")),
                **{**_restore(AuditEntry, row), "imported": True},
            )
            for row in audit_rows
        )
        _keep_created_at(audit, audit_rows)
    except (KeyError, TypeError, ValueError, DatabaseError) as exc:
        # The checks above should leave nothing to fail here; if one does, still one line.
        raise ImportError_([f"the export is inconsistent: {exc!r}"]) from exc
    return tournament
