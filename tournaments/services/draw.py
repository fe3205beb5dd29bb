"""The draw: seeds, the bracket, and every match of it written in a constant number of queries."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.changes import change_emit
from matches.models import Match
from tournaments.algorithms import brackets
from tournaments.draw_plan import DrawPlan, generate_bracket
from tournaments.errors import BAD_REQUEST, UNPROCESSABLE, TournamentError
from tournaments.match_setup import ready_fields
from tournaments.models import Registration, Tournament
from tournaments.selectors.bracket import bracket_from_plan
from tournaments.services.common import Status, lock_tournament, require_status

if TYPE_CHECKING:
    from config.types import Actor

METHODS = ("seeded", "random", "manual")
# Inclusive; stored in a BigIntegerField.
MAX_RANDOM_SEED = 2**62


def _unpaid(regs: Sequence[Registration]) -> list[Registration]:
    return [r for r in regs if not r.paid and r.fee_due > 0]


def _active_registrations(tournament: Tournament) -> list[Registration]:
    return list(
        tournament.registrations.filter(status=Registration.Status.ACTIVE)
        .select_related("player")
        .order_by("created_at", "pk")
    )


def draw_plan(
    tournament: Tournament,
    regs: list[Registration],
    *,
    method: str,
    random_seed: int | None,
    manual_order: Sequence[int] | None,
) -> DrawPlan:
    if method not in METHODS:
        raise TournamentError(
            "invalid_draw",
            _("Unknown draw method “%(method)s”; use seeded, random or manual.")
            % {"method": method},
            status=BAD_REQUEST,
        )
    if len(regs) < 2:
        raise TournamentError(
            "not_enough_players",
            _("At least 2 registered players are needed for the draw (now %(n)s).")
            % {"n": len(regs)},
            status=UNPROCESSABLE,
        )
    seed_value: int | None = None
    if method == "seeded":
        # Rating at entry, the higher first; equal ratings: who registered first.
        order = sorted(regs, key=lambda r: (-r.rating_at_entry, r.created_at, r.pk))
    elif method == "random":
        if random_seed is None:
            seed_value = secrets.randbelow(MAX_RANDOM_SEED + 1)
        elif (
            isinstance(random_seed, bool)
            or not isinstance(random_seed, int)
            or not (0 <= random_seed <= MAX_RANDOM_SEED)
        ):
            raise TournamentError(
                "invalid_draw",
                _("The random seed must be a whole number from 0 to %(max)s.")
                % {"max": MAX_RANDOM_SEED},
                status=BAD_REQUEST,
            )
        else:
            seed_value = random_seed
        # A fixed starting order (registration id) makes the stored seed replayable.
        order = brackets.random_order(sorted(regs, key=lambda r: r.pk), seed_value)
    else:
        order = _manual(regs, manual_order)
    bracket = generate_bracket(tournament, len(order))
    return DrawPlan(method, seed_value, order, bracket, _unpaid(regs))


def _manual(regs: list[Registration], manual_order: Sequence[int] | None) -> list[Registration]:
    by_player = {r.player_id: r for r in regs}
    given = list(manual_order or [])
    unknown = [p for p in given if p not in by_player]
    missing = [p for p in by_player if p not in given]
    if unknown or missing or len(given) != len(set(given)):
        raise TournamentError(
            "invalid_manual_order",
            _("The manual order must list every registered player exactly once."),
            status=UNPROCESSABLE,
            params={"unknown": unknown, "missing": missing},
        )
    return [by_player[p] for p in given]


def _specs_by_seed(plan: DrawPlan) -> dict[int, Registration]:
    return dict(enumerate(plan.order, start=1))


def _build_matches(tournament: Tournament, plan: DrawPlan) -> list[Match]:
    by_seed = _specs_by_seed(plan)
    rows = []
    for spec in plan.bracket.matches:
        players: dict[str, Registration | None] = {}
        for slot, src in (("a", spec.a), ("b", spec.b)):
            players[slot] = by_seed[src.seed()] if src is not None and src.kind == "seed" else None
        row = Match(
            tournament=tournament,
            key=spec.key,
            stage=spec.stage,
            round=spec.round,
            order=spec.order,
            group=spec.group,
            schedule_round=spec.schedule_round,
            conditional=spec.conditional,
            player_a=players["a"].player if players["a"] else None,
            player_b=players["b"].player if players["b"] else None,
            winner_slot=spec.winner_to[1] if spec.winner_to else "",
            loser_slot=spec.loser_to[1] if spec.loser_to else "",
        )
        if players["a"] is not None and players["b"] is not None:
            for field, value in ready_fields(
                tournament,
                spec.stage,
                rating_a=players["a"].rating_at_entry,
                rating_b=players["b"].rating_at_entry,
            ).items():
                setattr(row, field, value)
        rows.append(row)
    return rows


@transaction.atomic
def tournament_draw(
    *,
    tournament: Tournament,
    actor: Actor | None,
    method: str,
    random_seed: int | None = None,
    manual_order: Sequence[int] | None = None,
    allow_unpaid: bool = False,
) -> Tournament:
    """Draw the bracket from registration: seeds every active player (by rating, by a stored
    random seed, or in the organiser's order), writes every match with its links and makes
    the first matches ready. Unpaid entry fees stop the draw (listing who) unless
    ``allow_unpaid``. The number of queries does not depend on the number of players."""
    locked = lock_tournament(tournament)
    if locked.status in (Status.DRAWN, Status.RUNNING, Status.FINISHED):
        raise TournamentError(
            "already_drawn", _("The draw has already been made."), params={"status": locked.status}
        )
    require_status(locked, Status.REGISTRATION)
    regs = _active_registrations(locked)
    plan = draw_plan(
        locked, regs, method=method, random_seed=random_seed, manual_order=manual_order
    )
    if plan.unpaid and not allow_unpaid:
        names = [r.player.name for r in plan.unpaid]
        raise TournamentError(
            "unpaid",
            _("Entry fees not paid: %(names)s. Tick them paid or draw with unpaid fees allowed.")
            % {"names": ", ".join(names)},
            status=UNPROCESSABLE,
            params={"players": [r.player_id for r in plan.unpaid], "names": names},
        )

    for seed, reg in enumerate(plan.order, start=1):
        reg.seed = seed
    Registration.objects.bulk_update(plan.order, ["seed"])

    rows = _build_matches(locked, plan)
    Match.objects.bulk_create(rows)
    by_key = {row.key: row for row in rows}
    linked = []
    for spec, row in zip(plan.bracket.matches, rows, strict=True):
        if spec.winner_to is None and spec.loser_to is None:
            continue
        row.winner_to = by_key[spec.winner_to[0]] if spec.winner_to else None
        row.loser_to = by_key[spec.loser_to[0]] if spec.loser_to else None
        linked.append(row)
    Match.objects.bulk_update(linked, ["winner_to", "loser_to"])

    locked.status = Status.DRAWN
    locked.draw_method = plan.method
    locked.random_seed = plan.random_seed
    locked.drawn_at = timezone.now()
    locked.public_version = F("public_version") + 1
    locked.save(
        update_fields=[
            "status",
            "draw_method",
            "random_seed",
            "drawn_at",
            "public_version",
            "updated_at",
        ]
    )
    locked.refresh_from_db(fields=["public_version"])
    audit_record(
        actor=actor,
        action="tournament_draw",
        tournament=locked,
        data={
            "method": plan.method,
            "random_seed": plan.random_seed,
            "players": len(plan.order),
            "matches": len(rows),
            "unpaid": [r.player_id for r in plan.unpaid],
            "order": [r.player_id for r in plan.order],
        },
    )
    change_emit(kind="tournament.draw", tournament_id=locked.pk, data={"matches": len(rows)})
    return locked


def tournament_draw_preview(
    *,
    tournament: Tournament,
    method: str,
    random_seed: int | None = None,
    manual_order: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The bracket the draw would make, without writing anything. A random preview returns its
    seed: drawing with that seed gives exactly this bracket. Shaped like ``tournament_bracket``."""
    require_status(tournament, Status.REGISTRATION)
    regs = _active_registrations(tournament)
    plan = draw_plan(
        tournament, regs, method=method, random_seed=random_seed, manual_order=manual_order
    )
    return bracket_from_plan(tournament, plan)
