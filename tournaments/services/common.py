"""Helpers shared by the tournaments services: locking, status rules, public version."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.changes import change_emit
from tournaments.errors import CONFLICT, TournamentError
from tournaments.models import Tournament

if TYPE_CHECKING:
    from config.types import Actor

Status = Tournament.Status
OTHER = {"a": "b", "b": "a"}  # the other slot of a match

# The organiser-driven life cycle; "finished" is reached only when nothing is left to play.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.DRAWN,),
    Status.DRAWN: (Status.RUNNING, Status.FINISHED),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked until the end of the transaction (fresh from the database).

    FOR NO KEY UPDATE, not FOR UPDATE: writers of the tournament still queue on each other,
    but rows that merely refer to it (audit entries, events' matches) do not wait: their
    foreign-key check takes a KEY SHARE lock, which FOR UPDATE would block at every table's
    commit for as long as a finished match's progression runs."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update(no_key=True).get(pk=pk)


def status_label(status: str) -> str:
    return str(Status(status).label)


def require_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise TournamentError(
            "wrong_status",
            _("Not possible while the tournament is “%(status)s” (needs: %(allowed)s).")
            % {
                "status": status_label(tournament.status),
                "allowed": ", ".join(f"“{status_label(s)}”" for s in allowed),
            },
            status=CONFLICT,
            params={"status": tournament.status, "allowed": list(allowed)},
        )


def change_status(
    tournament: Tournament, to: str, *, actor: Actor | None, reason: str = ""
) -> None:
    """Move a locked tournament along the life cycle, audited; any other move is an error."""
    if to not in TRANSITIONS[tournament.status]:
        raise TournamentError(
            "wrong_transition",
            _("The tournament cannot go from “%(from)s” to “%(to)s”.")
            % {"from": status_label(tournament.status), "to": status_label(to)},
            status=CONFLICT,
            params={"from": tournament.status, "to": to},
        )
    before = tournament.status
    tournament.status = to
    fields = ["status", "updated_at"]
    if to == Status.FINISHED:
        tournament.finished_at = timezone.now()
        fields.append("finished_at")
    tournament.save(update_fields=fields)
    audit_record(
        actor=actor,
        action="tournament_status",
        tournament=tournament,
        data={"from": before, "to": to, "reason": reason},
    )


def bump_public_version(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(public_version=F("public_version") + 1)
    tournament.refresh_from_db(fields=["public_version"])


def visibility_announce(*, tournament: Tournament) -> None:
    """Tell the change feed that the tournament became public or private (in the writer's
    transaction): the live streams drop their cached decision of who may read it and, when it
    became private, cut off the readers who may no longer read it."""
    change_emit(
        kind="tournament.visibility",
        tournament_id=tournament.pk,
        data={"public": tournament.is_public},
    )
