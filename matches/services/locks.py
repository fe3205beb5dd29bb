"""Row locks of the match writes and their compiled statements (see matches.querycache)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from matches import access, errors, selectors
from matches.models import IdempotencyRecord, Match, MatchEvent
from matches.querycache import (
    CompiledInsert,
    CompiledQuery,
    CompiledUpdate,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor


def _user(actor: Actor | None) -> User | None:
    return actor if actor is not None and actor.is_authenticated else None


# Tournament columns no write of a match reads (matches.selectors.UNREAD_TOURNAMENT_COLUMNS).
_UNUSED_BY_WRITES = selectors.UNREAD_TOURNAMENT_COLUMNS


def _locked(pk: int) -> QuerySet[Match]:
    """The match row locked (only it), with what its answer shows (selectors.match_queryset);
    unordered: first() would sort by Match's default ordering, a join of the tournament."""
    return (
        selectors.match_queryset()
        .defer(*_UNUSED_BY_WRITES)
        .select_for_update(of=("self",))
        .filter(pk=pk)
        .order_by()
    )


# Built once per thread: run on every scoring write, and its SQL (a hundred columns of four
# tables) costs more to build than to run. The second adds the role flags of the user given
# as its second argument (matches.access._role_flags): the role costs no query of its own.
_LOCKED_MATCH = CompiledQuery(lambda pk: _locked(pk)[:1])
_LOCKED_MATCH_AND_ROLE = CompiledQuery(
    lambda pk, user_id: _locked(pk).annotate(**access.role_flag_annotations(user_id))[:1],
    arity=2,
)

# The match row alone, locked: what a clock's expiry starts from. No joins: this runs for
# every clock at once at the end of a round; what a finish needs (players, tournament) is
# loaded then. Unordered, as Match's default ordering joins the tournament, and FOR UPDATE
# would lock the tournament row too: every expiry would stall every table's commit.
_LOCKED_ROW = CompiledQuery(
    lambda pk: Match.objects.select_for_update().filter(pk=pk).order_by()[:1]
)

# The rows every scored ball writes, inserted as save() would with their SQL built once.
_NEW_ENTRY = CompiledInsert(MatchEvent)
_NEW_RECORD = CompiledInsert(IdempotencyRecord)
_SAVE_MATCH = CompiledUpdate(Match)
_SAVE_ENTRY = CompiledUpdate(MatchEvent)


def _lock(match_id: int, actor: Actor | None = None) -> Match:
    """Lock the match row (only it) and load it with its tournament, players and table; with
    the role flags of `actor` when a user writes."""
    user = _user(actor)
    if user is None:
        found = _LOCKED_MATCH.fetch(match_id)
    else:
        found = _LOCKED_MATCH_AND_ROLE.fetch(match_id, user.pk)
        if found:
            access.role_flags_loaded(found[0], user.pk)
    if not found:
        raise errors.match_not_found()
    return found[0]
