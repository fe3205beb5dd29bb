"""Bracket progression: players move on when a match finishes, matches become ready, group
tables feed the play-off, ratings change, and the organiser can correct a result or a handicap."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, cast

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from audit.services import audit_record
from config.changes import change_emit
from matches.models import Match
from matches.selectors import WITH_RESULT, discipline_of
from matches.services import match_walkover
from tournaments.algorithms import elo
from tournaments.algorithms.groups import GroupResult, group_table
from tournaments.draw_plan import generate_bracket
from tournaments.errors import BAD_REQUEST, CONFLICT, TournamentError
from tournaments.match_labels import match_label
from tournaments.match_setup import ready_fields
from tournaments.models import Player, RatingChange, Registration, Tournament
from tournaments.services.common import OTHER, Status, lock_tournament
from tournaments.services.setup import ruleset_error_message

if TYPE_CHECKING:
    from config.types import Actor

MatchStatus = Match.Status
PENDING = (
    MatchStatus.SCHEDULED,
    MatchStatus.READY,
    MatchStatus.ON_TABLE,
    MatchStatus.RUNNING,
    MatchStatus.PAUSED,
)
# A match that may still change its players: nothing has been played in it.
UNPLAYED = (MatchStatus.SCHEDULED, MatchStatus.READY, MatchStatus.ON_TABLE, MatchStatus.VOID)
RATED_RESULTS = ("race", "time", "corrected")


# --- ratings -------------------------------------------------------------------------------


def _is_rated(tournament: Tournament, match: Match) -> bool:
    # Only matches decided at the table count: a walkover or a forfeit (withdrawal, no-show,
    # disqualification) says nothing about playing strength.
    return bool(
        tournament.rated
        and match.status == MatchStatus.FINISHED
        and match.result in RATED_RESULTS
        and match.winner_id
        and match.loser_id
    )


def _rate(tournament: Tournament, match: Match, *, before: Mapping[int, int] | None = None) -> None:
    """Apply the Elo change of a decided match to both players' current ratings. ``before``
    gives the ratings to compute from (a correction recomputes from the pre-match ratings)."""
    players: dict[int | None, Player] = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[match.winner_id, match.loser_id])
        .order_by("pk")
    }
    winner, loser = players[match.winner_id], players[match.loser_id]
    base = before or {}
    delta = elo.elo_change(
        winner_rating=base.get(winner.pk, winner.rating),
        loser_rating=base.get(loser.pk, loser.rating),
        k=tournament.elo_k,
    )
    changes = []
    for player, opponent, change in ((winner, loser, delta), (loser, winner, -delta)):
        changes.append(
            RatingChange(
                player=player,
                tournament=tournament,
                match=match,
                opponent=opponent,
                rating_before=player.rating,
                rating_after=player.rating + change,
                delta=change,
                reason="match",
            )
        )
        player.rating += change
        player.save(update_fields=["rating", "updated_at"])
    RatingChange.objects.bulk_create(changes)


def _unrate(tournament: Tournament, match: Match) -> dict[int, int]:
    """Reverse the match's rating changes (recorded as "reversal"); returns each player's
    rating before the match, for recomputing."""
    old = list(RatingChange.objects.filter(match=match, reason="match"))
    if not old:
        return {}
    players = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[c.player_id for c in old])
        .order_by("pk")
    }
    reversals = []
    for change in old:
        player = players[change.player_id]
        reversals.append(
            RatingChange(
                player=player,
                tournament=tournament,
                match=match,
                opponent_id=change.opponent_id,
                rating_before=player.rating,
                rating_after=player.rating - change.delta,
                delta=-change.delta,
                reason="reversal",
            )
        )
        player.rating -= change.delta
        player.save(update_fields=["rating", "updated_at"])
    RatingChange.objects.bulk_create(reversals)
    # The reversed rows stay in the history, marked so they no longer count as the match's.
    RatingChange.objects.filter(pk__in=[c.pk for c in old]).update(reason="match_reversed")
    return {c.player_id: c.rating_before for c in old}


# --- seating players ----------------------------------------------------------------------


class _Progress:
    """One progression step: caches the tournament's registrations it needs."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._regs: dict[int, tuple[int, str]] | None = None

    def reg(self, player_id: int) -> tuple[int, str]:
        if self._regs is None:
            self._regs = {
                pid: (rating, status)
                for pid, rating, status in Registration.objects.filter(
                    tournament=self.tournament
                ).values_list("player_id", "rating_at_entry", "status")
            }
        return self._regs[player_id]

    def withdrawn(self, player_id: int) -> bool:
        """Out of the tournament: withdrew, or disqualified."""
        return self.reg(player_id)[1] in (
            Registration.Status.WITHDRAWN,
            Registration.Status.DISQUALIFIED,
        )


def _started(match: Match) -> bool:
    """Play has begun in the match (an event, or its clock started), or it has a result."""
    return match.status not in UNPLAYED or match.version > 0 or match.started_at is not None


def _blocked(target: Match, code: str, message: str) -> TournamentError:
    return TournamentError(
        code,
        message % {"key": match_label(target.key)},
        status=CONFLICT,
        params={"blocking_match": target.key, "blocking_match_id": target.pk},
    )


def _refuse_if_started(target: Match) -> None:
    """Progression never changes the players of a match that has started or finished: the
    whole write is refused (the caller's transaction is rolled back), naming the match."""
    if _started(target):
        raise _blocked(
            target,
            "progression_blocked",
            _("Match %(key)s has already started; its players cannot change."),
        )


def _seat(progress: _Progress, target: Match, seats: Mapping[str, int | None]) -> None:
    """Put players into a match that has not started; when both are known it becomes ready
    (ruleset, handicap, state, clock), and a withdrawn player's match becomes a walkover."""
    fields = []
    for slot, player_id in seats.items():
        if getattr(target, f"player_{slot}_id") != player_id:
            _refuse_if_started(target)
            setattr(target, f"player_{slot}_id", player_id)
            fields.append(f"player_{slot}")
    both = target.player_a_id is not None and target.player_b_id is not None
    if both and (fields or target.status in ("scheduled", "void")):
        ready = ready_fields(
            progress.tournament,
            target.stage,
            rating_a=progress.reg(cast(int, target.player_a_id))[0],  # both seated
            rating_b=progress.reg(cast(int, target.player_b_id))[0],
        )
        if target.status == MatchStatus.ON_TABLE:
            # Called to a table but not begun: it stays there with its new player.
            ready.pop("status")
        for field, value in ready.items():
            setattr(target, field, value)
        fields += ready.keys()
    elif not both and target.status != MatchStatus.SCHEDULED:
        target.status = MatchStatus.SCHEDULED
        fields.append("status")
    if not fields:
        return
    target.save(update_fields=[*dict.fromkeys(fields), "updated_at"])
    if both:
        _walkover_withdrawn(progress, target)


def _walkover_withdrawn(progress: _Progress, match: Match) -> None:
    gone = [slot for slot in ("a", "b") if progress.withdrawn(getattr(match, f"player_{slot}_id"))]
    if not gone:
        return
    # Both withdrawn: one of them goes on, to be walked over again in his next match.
    winner_slot = OTHER[gone[0]] if len(gone) == 1 else "a"
    match_walkover(match=match, winner_slot=winner_slot, actor=None, reason="withdrawn")


def _void(target: Match) -> None:
    _refuse_if_started(target)
    target.player_a_id = target.player_b_id = None
    target.status = MatchStatus.VOID
    target.save(update_fields=["player_a", "player_b", "status", "updated_at"])


def _reset_needed(match: Match) -> bool:
    """The grand-final reset is played only if GF-1's loser had not lost before (he came
    from the upper bracket)."""
    losses = Match.objects.filter(
        tournament_id=match.tournament_id, loser_id=match.loser_id, status__in=WITH_RESULT
    ).count()
    return losses <= 1


def _route(progress: _Progress, match: Match) -> None:
    """Winner and loser to the matches they feed (the slots the links name)."""
    targets: dict[int, dict[str, int | None]] = {}
    if match.winner_to_id:
        targets.setdefault(match.winner_to_id, {})[match.winner_slot] = match.winner_id
    if match.loser_to_id:
        targets.setdefault(match.loser_to_id, {})[match.loser_slot] = match.loser_id
    for target_id in sorted(targets):
        # Read each target just before seating: a walkover set off by the previous one may
        # have moved players on already.
        target = Match.objects.select_for_update().get(pk=target_id)
        if target.conditional and not _reset_needed(match):
            if target.status != MatchStatus.VOID:
                _void(target)
            continue
        _seat(progress, target, targets[target_id])


def _group_feeds(progress: _Progress, group: int) -> dict[str, dict[str, int | None]]:
    """Once every match of a group is done, its ranking fills the play-off slots it feeds:
    {match key: {slot: player}}. Empty while the group is still playing."""
    tournament = progress.tournament
    group_matches = list(
        Match.objects.filter(tournament=tournament, stage="group", group=group).values(
            "status", "player_a_id", "player_b_id", "score_a", "score_b", "winner_id"
        )
    )
    if any(m["status"] not in WITH_RESULT for m in group_matches):
        return {}
    seeds = cast(
        "dict[int, int]",  # seeded only
        dict(
            Registration.objects.filter(tournament=tournament, seed__isnull=False).values_list(
                "player_id", "seed"
            )
        ),
    )
    player_of = {seed: pid for pid, seed in seeds.items()}
    results = [
        GroupResult(
            seeds[m["player_a_id"]],
            seeds[m["player_b_id"]],
            m["score_a"] or 0,
            m["score_b"] or 0,
            seeds[m["winner_id"]],
        )
        for m in group_matches
    ]
    table = group_table(results)
    rank_player = {row.rank: player_of[row.seed] for row in table}
    feeds: dict[str, dict[str, int | None]] = {}
    for spec in generate_bracket(tournament, len(seeds)).matches:
        for slot, src in (("a", spec.a), ("b", spec.b)):
            if src is not None and src.kind == "group" and src.group_rank()[0] == group:
                feeds.setdefault(spec.key, {})[slot] = rank_player.get(src.group_rank()[1])
    return feeds


def _seat_by_key(progress: _Progress, feeds: Mapping[str, Mapping[str, int | None]]) -> None:
    if not feeds:
        return
    # order_by: Match's default ordering joins the tournament, which FOR UPDATE would lock.
    locked = list(
        Match.objects.select_for_update()
        .filter(tournament=progress.tournament, key__in=list(feeds))
        .order_by("pk")
        .values_list("pk", "key")
    )
    for pk, key in locked:
        # Re-read each just before seating: a walkover set off by an earlier one (a withdrawn
        # qualifier) may already have moved a player into it.
        _seat(progress, Match.objects.get(pk=pk), feeds[key])


def _after_change(tournament: Tournament) -> None:
    """Bump the public version; running once anything is played, finished when nothing is left
    (and running again if a correction brought a match back)."""
    Tournament.objects.filter(pk=tournament.pk).update(public_version=F("public_version") + 1)
    tournament.refresh_from_db(fields=["public_version", "status"])
    pending = Match.objects.filter(tournament=tournament, status__in=PENDING).exists()
    before = tournament.status
    if not pending and before in (Status.DRAWN, Status.RUNNING):
        tournament.status = Status.FINISHED
        tournament.finished_at = timezone.now()
    elif pending and before in (Status.DRAWN, Status.FINISHED):
        tournament.status = Status.RUNNING
        tournament.finished_at = None
    if tournament.status != before:
        tournament.save(update_fields=["status", "finished_at", "updated_at"])
        audit_record(
            actor=None,
            action="tournament_status",
            tournament=tournament,
            data={"from": before, "to": tournament.status, "reason": "progression"},
        )


def tournament_on_match_started(*, match: Match) -> None:
    """Called by the matches app when a match starts: the tournament is running from then on.
    A conditional update, so only the first start of a drawn tournament writes its row."""
    updated = Tournament.objects.filter(pk=match.tournament_id, status=Status.DRAWN).update(
        status=Status.RUNNING, public_version=F("public_version") + 1
    )
    if updated:
        audit_record(
            actor=None,
            action="tournament_status",
            tournament=None,
            match=match,
            data={"from": Status.DRAWN, "to": Status.RUNNING, "reason": "first match started"},
        )
    change_emit(kind="match.started", tournament_id=match.tournament_id, match_id=match.pk)


@transaction.atomic
def tournament_on_match_finished(*, match: Match) -> None:
    """Called by the matches app inside its transaction once ``match`` is finished or walked
    over (winner, loser, scores set): rates it, moves both players on, fills the play-off
    from a completed group, and finishes the tournament when nothing is left to play."""
    tournament = lock_tournament(match.tournament_id)
    if match.status not in WITH_RESULT or not match.winner_id:
        raise TournamentError(
            "match_not_finished",
            _("Match %(key)s has no result yet.") % {"key": match_label(match.key)},
            status=CONFLICT,
        )
    progress = _Progress(tournament)
    # Rated once: a repeated call (a retried task) must not move the ratings twice.
    if (
        _is_rated(tournament, match)
        and not RatingChange.objects.filter(match=match, reason="match").exists()
    ):
        _rate(tournament, match)
    _route(progress, match)
    if match.stage == "group" and match.group is not None:
        _seat_by_key(progress, _group_feeds(progress, match.group))
    _after_change(tournament)
    change_emit(
        kind="match.finished",
        tournament_id=match.tournament_id,
        match_id=match.pk,
        # As the REST answers give it: the winner's slot, and the player in winner_id.
        data={
            "status": match.status,
            "winner": _slot_of(match, match.winner_id),
            "winner_id": match.winner_id,
        },
    )


# --- organiser corrections ------------------------------------------------------------------


def _fed_matches(tournament: Tournament, match: Match) -> list[Match]:
    """The matches a result feeds, locked: its winner's and loser's next matches, and for a
    group match the play-off matches the group's ranking fills."""
    ids = [i for i in (match.winner_to_id, match.loser_to_id) if i]
    fed = list(Match.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    if match.stage == "group" and match.group is not None:
        entrants = Registration.objects.filter(tournament=tournament, seed__isnull=False).count()
        keys = [
            spec.key
            for spec in generate_bracket(tournament, entrants).matches
            if any(
                src is not None and src.kind == "group" and src.group_rank()[0] == match.group
                for src in (spec.a, spec.b)
            )
        ]
        fed += list(
            Match.objects.select_for_update()
            .filter(tournament=tournament, key__in=keys)
            .order_by("pk")
        )
    return fed


def _check_not_started(fed: Iterable[Match]) -> None:
    for target in sorted(fed, key=lambda m: (m.schedule_round, m.key)):
        if _started(target):
            raise _blocked(
                target,
                "correction_blocked",
                _(
                    "Match %(key)s, which this result fed, has already started; "
                    "correct or undo that match first."
                ),
            )


def _slot_of(row: Match, player_id: int | None) -> str | None:
    if player_id is None:
        return None
    if player_id == row.player_a_id:
        return "a"
    return "b" if player_id == row.player_b_id else None


@transaction.atomic
def match_correct_result(
    *,
    match: Match,
    winner_slot: str,
    score_a: int,
    score_b: int,
    actor: Actor | None,
    reason: str = "",
) -> Match:
    """The organiser corrects a finished result while the matches it fed have not started: the
    players in those matches are re-routed and their handicaps recomputed, the Elo change is
    reversed and applied anew, and it is audited.

    The match's result fields then hold the corrected result (result "corrected"), with who
    corrected it, when, why and the result it replaced; the log of what was played is kept.
    The same result again changes nothing."""
    if winner_slot not in ("a", "b"):
        raise TournamentError(
            "invalid_correction", _("The winner must be player a or b."), status=BAD_REQUEST
        )
    for score in (score_a, score_b):
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise TournamentError(
                "invalid_correction",
                _("Scores must be whole numbers, 0 or more."),
                status=BAD_REQUEST,
            )
    row = Match.objects.select_for_update().get(pk=match.pk)
    if row.status not in WITH_RESULT:
        raise TournamentError(
            "match_not_finished",
            _("Match %(key)s has no result to correct yet.") % {"key": match_label(row.key)},
            status=CONFLICT,
        )
    new_winner = getattr(row, f"player_{winner_slot}_id")
    new_loser = getattr(row, f"player_{OTHER[winner_slot]}_id")
    if (new_winner, score_a, score_b) == (row.winner_id, row.score_a, row.score_b):
        return row  # a retry, or nothing to correct
    winner_changed = new_winner != row.winner_id
    is_group = row.stage == "group" and row.group is not None
    # Lock order of the matches app: match rows before the tournament row.
    fed = _fed_matches(Tournament.objects.get(pk=row.tournament_id), row)
    tournament = lock_tournament(row.tournament_id)
    progress = _Progress(tournament)
    # A score-only change in a knockout match moves nobody; in a group it can change the table.
    if winner_changed or is_group:
        _check_not_started(fed)

    old = {
        "winner": row.winner_id,
        "loser": row.loser_id,
        "score_a": row.score_a,
        "score_b": row.score_b,
        "status": row.status,
        "result": row.result,
    }
    was_rated = RatingChange.objects.filter(match=row, reason="match").exists()

    now = timezone.now()
    row.corrected_from = {
        "winner": _slot_of(row, row.winner_id),
        "score_a": row.score_a,
        "score_b": row.score_b,
        "result": row.result,
        "status": row.status,
    }
    row.corrected_at = now
    row.corrected_by = actor if actor is not None and actor.is_authenticated else None
    row.correction_reason = reason[:300]
    row.winner_id, row.loser_id = new_winner, new_loser
    row.score_a, row.score_b = score_a, score_b
    row.status = MatchStatus.FINISHED
    row.result = "corrected"
    if row.finished_at is None:
        row.finished_at = now
    row.save(
        update_fields=[
            "winner",
            "loser",
            "score_a",
            "score_b",
            "status",
            "result",
            "finished_at",
            "corrected_from",
            "corrected_at",
            "corrected_by",
            "correction_reason",
            "updated_at",
        ]
    )

    if tournament.rated and (winner_changed or not was_rated):
        before = _unrate(tournament, row)
        _rate(tournament, row, before=before)

    if winner_changed:
        _route(progress, row)
    if is_group:
        _seat_by_key(progress, _group_feeds(progress, cast(int, row.group)))

    audit_record(
        actor=actor,
        action="match_correct_result",
        tournament=tournament,
        match=row,
        data={
            "before": old,
            "after": {
                "winner": new_winner,
                "loser": new_loser,
                "score_a": score_a,
                "score_b": score_b,
            },
            "reason": row.correction_reason,
            "rerouted": sorted(m.key for m in fed) if winner_changed or is_group else [],
        },
    )
    _after_change(tournament)
    change_emit(
        kind="match.corrected",
        tournament_id=row.tournament_id,
        match_id=row.pk,
        data={
            "winner": winner_slot,
            "winner_id": new_winner,
            "score_a": score_a,
            "score_b": score_b,
        },
    )
    return row


@transaction.atomic
def match_set_handicap(
    *,
    match: Match,
    head_start: Mapping[str, int],
    balls_to_win: int | None = None,
    actor: Actor | None,
) -> Match:
    """The organiser overrides a match's head start (and race) before anything is played in
    it; the next re-seat (a result correction) goes back to the scheme."""
    row = Match.objects.select_for_update().get(pk=match.pk)
    tournament = Tournament.objects.get(pk=row.tournament_id)
    if row.player_a_id is None or row.player_b_id is None:
        raise TournamentError(
            "players_unknown",
            _("Match %(key)s does not have both players yet.") % {"key": match_label(row.key)},
            status=CONFLICT,
        )
    if row.status not in ("ready", "on_table") or row.version > 0:
        raise TournamentError(
            "match_started",
            _("Match %(key)s has already started; its handicap cannot change.")
            % {"key": match_label(row.key)},
            status=CONFLICT,
        )
    if not discipline_of(row.ruleset).has_head_start:
        raise TournamentError(
            "no_head_start",
            _("This discipline has no head start."),
            status=BAD_REQUEST,
        )
    ruleset = dict(row.ruleset)
    ruleset["head_start"] = dict(head_start)
    if balls_to_win is not None:
        ruleset["balls_to_win"] = balls_to_win
    try:
        normalised = rules.validate_ruleset(ruleset)
    except rules.RuleError as err:
        raise TournamentError(
            "invalid_ruleset",
            ruleset_error_message(err),
            status=BAD_REQUEST,
            params=err.params,
        ) from None
    before = {
        "head_start": row.ruleset.get("head_start"),
        "balls_to_win": row.ruleset.get("balls_to_win"),
    }
    row.ruleset = normalised
    row.state = rules.initial_state(normalised)
    row.head_start_overridden = True
    row.save(update_fields=["ruleset", "state", "head_start_overridden", "updated_at"])
    audit_record(
        actor=actor,
        action="match_set_handicap",
        tournament=tournament,
        match=row,
        data={
            "before": before,
            "after": {
                "head_start": normalised["head_start"],
                "balls_to_win": normalised["balls_to_win"],
            },
        },
    )
    Tournament.objects.filter(pk=tournament.pk).update(public_version=F("public_version") + 1)
    return row
