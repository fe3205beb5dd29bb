"""Presentation of the tournament reads: translated titles and labels of stages, rounds, slot
sources and matches. The selectors return data; the words a page shows are built here."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.models import Match
from tournaments.algorithms.model import Source
from tournaments.match_labels import match_label

STAGE_TITLES = {
    "single": gettext_lazy("Bracket"),
    "upper": gettext_lazy("Upper bracket"),
    "lower": gettext_lazy("Lower bracket"),
    "grand_final": gettext_lazy("Grand final"),
    "grand_final_reset": gettext_lazy("Grand final, reset"),
    "playoff": gettext_lazy("Play-off"),
    "third_place": gettext_lazy("Third place"),
}


def stage_title(stage: str, group: int | None) -> str:
    if stage == "group":
        return _("Group %(n)s") % {"n": group}
    return str(STAGE_TITLES.get(stage, stage))


def round_title(stage: str, rnd: int, last_round: int) -> str:
    """A round as the bracket heads it («Полуфинал», «Тур 2»); the scoreboard says the same."""
    if stage in ("single", "playoff"):
        if rnd == last_round:
            return _("Final")
        if rnd == last_round - 1:
            return _("Semi-finals")
        if rnd == last_round - 2:
            return _("Quarter-finals")
    if stage in ("grand_final", "grand_final_reset", "third_place"):
        return stage_title(stage, None)
    return _("Round %(n)s") % {"n": rnd}


class SourceLabels:
    """Where an empty slot's player comes from, labelled; translations looked up once."""

    def __init__(self) -> None:
        self.seed = _("Seed %(n)s")
        self.group = _("Group %(group)s, place %(rank)s")
        self.winner = _("Winner of %(key)s")
        self.loser = _("Loser of %(key)s")

    def __call__(self, src: Source | None) -> dict[str, Any] | None:
        if src is None:
            return None
        ref: Any = src.ref
        if src.kind == "seed":
            label = self.seed % {"n": ref}
        elif src.kind == "group":
            group, rank = ref
            ref = [group, rank]
            label = self.group % {"group": group, "rank": rank}
        elif src.kind == "winner":
            label = self.winner % {"key": match_label(ref)}
        else:
            label = self.loser % {"key": match_label(ref)}
        return {"kind": src.kind, "ref": ref, "label": label}


def slot_status_label(*, ready: bool) -> str:
    return str(_("Ready") if ready else _("Waiting for players"))


def names_of(match: Match) -> dict[str, str]:
    """The match's players by slot, as a page names them (a slot not decided yet says so)."""
    return {
        "a": match.player_a.name if match.player_a else _("to be decided"),
        "b": match.player_b.name if match.player_b else _("to be decided"),
    }


def stage_label(match: Match) -> str:
    """Where the match is played, named as the bracket names it (the same round is «Полуфинал»
    on the scoreboard and in the bracket)."""
    stage = str(STAGE_TITLES.get(match.stage, match.stage))
    if match.stage in ("grand_final", "grand_final_reset", "third_place"):
        return stage
    if match.stage == "group":
        return _("Group %(g)s, round %(r)s") % {"g": match.group, "r": match.round}
    if match.stage in ("single", "playoff"):
        last = (
            Match.objects.filter(tournament_id=match.tournament_id, stage=match.stage)
            .aggregate(last=Max("round"))
            .get("last")
        ) or match.round
        title = round_title(match.stage, match.round, last)
        if match.stage == "single":
            return title
        return _("%(stage)s: %(round)s") % {"stage": stage, "round": title[:1].lower() + title[1:]}
    return _("%(stage)s, round %(r)s") % {"stage": stage, "r": match.round}


def match_title(match: Match) -> str:
    """The match's heading: its stage and its number, each said once («Финал», not
    «Финал · Финал»)."""
    stage, label = stage_label(match), match_label(match.key)
    return label if stage == label or not stage else f"{stage} · {label}"


CURRENCY = "₽"


NARROW_NBSP = "\u202f"


def money(value: Any) -> str:
    """1500.00 -> "1 500 ₽"; kopecks only when there are any."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    text = f"{amount:,.0f}" if amount == amount.to_integral() else f"{amount:,.2f}"
    return text.replace(",", NARROW_NBSP) + "\u00a0" + CURRENCY
