"""Settings after the draw, archive and delete.

Before the draw every setting may change (tournament_update). Once matches exist only what
cannot break a played match may: the names and texts, visibility, the diplomas, and the races
and time limits of matches nobody has started yet, which are re-made from the new rules (a
preview lists them first)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

import rules
from audit.services import audit_record
from matches.models import Match
from matches.selectors import NOT_STARTED
from tournaments.errors import CONFLICT, TournamentError
from tournaments.match_setup import STAGE_RULES_KEY, clock_limit_seconds, effective_ruleset
from tournaments.models import Registration, Tournament
from tournaments.services.common import (
    Status,
    bump_public_version,
    lock_tournament,
    visibility_announce,
)
from tournaments.services.setup import (
    LIVE_FIELDS,
    SETTINGS_FIELDS,
    clean_settings,
    tournament_update,
)

if TYPE_CHECKING:
    from config.types import Actor

# Race settings that may still change after the draw: they reach only matches not started.
RACE_FIELDS = ("stage_rules", "time_limit_minutes")


def settings_editable(tournament: Tournament) -> tuple[str, ...]:
    """The settings the organiser may change now."""
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        return SETTINGS_FIELDS
    if tournament.status == Status.FINISHED:
        return LIVE_FIELDS
    return (*LIVE_FIELDS, *RACE_FIELDS)


def _unstarted_matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(
            tournament=tournament, status__in=NOT_STARTED, version=0, started_at__isnull=True
        )
        .select_related("player_a", "player_b")
        .order_by("schedule_round", "stage", "round", "order")
    )


def _ratings(tournament: Tournament) -> dict[int, int]:
    return dict(
        Registration.objects.filter(tournament=tournament).values_list(
            "player_id", "rating_at_entry"
        )
    )


def _race(ruleset: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "balls_to_win": ruleset.get("balls_to_win"),
        "frames_to_win": ruleset.get("frames_to_win"),
    }


def _rerace(tournament: Tournament, values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What each not-started match would play under ``values`` (its stage rules and time
    limit): only the matches that change; those whose head start was set by hand keep it."""
    probe = Tournament(
        **{f: getattr(tournament, f) for f in SETTINGS_FIELDS if f not in RACE_FIELDS},
        **{f: values[f] for f in RACE_FIELDS},
    )
    ratings = _ratings(tournament)
    changes = []
    for match in _unstarted_matches(tournament):
        if match.player_a_id is None or match.player_b_id is None:
            continue
        if match.head_start_overridden:
            continue
        ruleset = effective_ruleset(
            probe,
            match.stage,
            rating_a=ratings.get(match.player_a_id, 0),
            rating_b=ratings.get(match.player_b_id, 0),
        )
        limit = clock_limit_seconds(probe, match.stage)
        if _race(ruleset) == _race(match.ruleset) and limit == match.clock_limit_seconds:
            continue
        changes.append(
            {
                "match": match,
                "stage_key": STAGE_RULES_KEY.get(match.stage, ""),
                "ruleset": ruleset,
                "before": {**_race(match.ruleset), "minutes": _minutes(match.clock_limit_seconds)},
                "after": {**_race(ruleset), "minutes": _minutes(limit)},
                "clock_limit_seconds": limit,
            }
        )
    return changes


def _minutes(seconds: int | None) -> int | None:
    return None if seconds is None else seconds // 60


def _check_allowed(tournament: Tournament, data: Mapping[str, Any]) -> None:
    allowed = settings_editable(tournament)
    refused = sorted(set(data) - set(allowed))
    if refused:
        raise TournamentError(
            "settings_locked",
            _("After the draw these settings can no longer change: %(keys)s.")
            # The form's fields are the model's own: none is the other side of a relation.
            % {"keys": ", ".join(str(Tournament._meta.get_field(k).verbose_name) for k in refused)},  # type: ignore[union-attr]
            status=CONFLICT,
            params={"field": refused[0], "fields": refused},
        )


def _cleaned_live(tournament: Tournament, data: Mapping[str, Any]) -> dict[str, Any]:
    before = {f: getattr(tournament, f) for f in SETTINGS_FIELDS}
    return clean_settings({**before, **data}, stored_logo=tournament.organiser_logo)


def tournament_settings_preview(
    *, tournament: Tournament, data: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The matches a change of races or time limits after the draw would re-make."""
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        return []
    _check_allowed(tournament, data)
    return _rerace(tournament, _cleaned_live(tournament, data))


@transaction.atomic
def tournament_settings_update(
    *, tournament: Tournament, actor: Actor | None, data: Mapping[str, Any]
) -> tuple[Tournament, list[dict[str, Any]]]:
    """Change settings at any moment: before the draw all of them (tournament_update), after
    it only those that cannot break a played match. Returns the tournament and the matches
    whose race or time limit changed."""
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        return tournament_update(tournament=tournament, actor=actor, data=data), []
    locked = lock_tournament(tournament)
    data = {k: v for k, v in data.items() if getattr(locked, k, object()) != v}
    _check_allowed(locked, data)
    if not data:
        return locked, []
    cleaned = _cleaned_live(locked, data)
    changes = _rerace(locked, cleaned) if set(RACE_FIELDS) & set(data) else []
    before = {f: getattr(locked, f) for f in data}
    for field in data:
        setattr(locked, field, cleaned[field])
    locked.save(update_fields=[*data, "updated_at"])
    for change in changes:
        match = change["match"]
        match.ruleset = change["ruleset"]
        match.state = rules.initial_state(change["ruleset"])
        match.clock_limit_seconds = change["clock_limit_seconds"]
        match.save(update_fields=["ruleset", "state", "clock_limit_seconds", "updated_at"])
        audit_record(
            actor=actor,
            action="match_race_change",
            match=match,
            data={"key": match.key, "before": change["before"], "after": change["after"]},
        )
    bump_public_version(locked)
    audit_record(
        actor=actor,
        action="tournament_update",
        tournament=locked,
        data={
            "changed": sorted(data),
            "before": {k: _plain(v) for k, v in before.items()},
            "after": {k: _plain(cleaned[k]) for k in data},
            "matches": [c["match"].key for c in changes],
        },
    )
    if "is_public" in data:
        visibility_announce(tournament=locked)
    return locked, changes


def _plain(value: Any) -> Any:
    """A value as JSON keeps it (the audit's data is JSON)."""
    if isinstance(value, str | int | bool | float | type(None) | list | dict):
        return value
    return str(value)


@transaction.atomic
def tournament_archive(
    *, tournament: Tournament, actor: Actor | None, archived: bool
) -> Tournament:
    """Hide a tournament from the public lists (or show it again); its pages stay."""
    locked = lock_tournament(tournament)
    if locked.archived != archived:
        locked.archived = archived
        locked.save(update_fields=["archived", "updated_at"])
        bump_public_version(locked)
        audit_record(
            actor=actor,
            action="tournament_archive" if archived else "tournament_unarchive",
            tournament=locked,
            data={"name": locked.name},
        )
    return locked


def tournament_delete_blockers(*, tournament: Tournament) -> list[str]:
    """Why the tournament cannot be deleted (empty: it can): money taken, a match played."""
    reasons = []
    if Registration.objects.filter(tournament=tournament, paid=True).exists():
        reasons.append(_("Entry fees have been paid."))
    played = Match.objects.filter(tournament=tournament).exclude(
        status__in=["scheduled", "ready", "on_table", "void"]
    )
    if played.exists() or Match.objects.filter(tournament=tournament, version__gt=0).exists():
        reasons.append(_("Matches have been played."))
    return reasons


@transaction.atomic
def tournament_delete(*, tournament: Tournament, actor: Actor | None) -> None:
    """Delete a tournament nobody paid for or played in (a test, a mistake)."""
    locked = lock_tournament(tournament)
    reasons = tournament_delete_blockers(tournament=locked)
    if reasons:
        raise TournamentError(
            "cannot_delete",
            " ".join([_("This tournament cannot be deleted."), *reasons, _("Archive it instead.")]),
            status=CONFLICT,
        )
    audit_record(
        actor=actor,
        action="tournament_delete",
        data={"tournament_id": locked.pk, "name": locked.name, "date": str(locked.date)},
    )
    locked.delete()
