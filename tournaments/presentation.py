"""Presentation of the tournament reads: translated titles and labels of stages, rounds, slot
sources and matches. The selectors return data; the words a page shows are built here."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from matches.models import Match
from matches.wording import result_mark_label
from tournaments.match_labels import match_label
from tournaments.running_text import match_in_text, player_in_text

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


class _SourceLabels:
    """Where an empty slot's player comes from, labelled; translations looked up once."""

    def __init__(self) -> None:
        self.seed = _("Seed %(n)s")
        self.group = _("Group %(group)s, place %(rank)s")
        self.winner = _("Winner of %(key)s")
        self.loser = _("Loser of %(key)s")

    def __call__(self, source: dict[str, Any] | None) -> None:
        if source is None:
            return
        kind, ref = source["kind"], source["ref"]
        if kind == "seed":
            label = self.seed % {"n": ref}
        elif kind == "group":
            label = self.group % {"group": ref[0], "rank": ref[1]}
        elif kind == "winner":
            label = self.winner % {"key": match_label(ref)}
        else:
            label = self.loser % {"key": match_label(ref)}
        source["label"] = label


def bracket_shown(bracket: dict[str, Any]) -> dict[str, Any]:
    """A bracket of the selectors (tournament_bracket, bracket_from_plan) with its words, as
    the pages and the API show it: the stages' and rounds' titles, each match's status, the
    sources of its empty slots and the mark of its result. In place; returns the bracket."""
    source = _SourceLabels()
    statuses = {value: str(label) for value, label in Match.Status.choices}
    for stage in bracket["stages"]:
        stage["title"] = stage_title(stage["stage"], stage["group"])
        # A stage whose pairs play different races (the pair's race) shows each match's own.
        races = {
            (m.get("frames_to_win"), m.get("balls_to_win"))
            for rnd in stage["rounds"]
            for m in rnd["matches"]
        }
        if len(races) > 1:
            for rnd in stage["rounds"]:
                for m in rnd["matches"]:
                    m["race_label"] = match_race_label(m)
        last = max((rnd["round"] for rnd in stage["rounds"]), default=0)
        for rnd in stage["rounds"]:
            rnd["title"] = round_title(stage["stage"], rnd["round"], last)
            for m in rnd["matches"]:
                m["status_label"] = statuses.get(m["status"], m["status"])
                source(m["source_a"])
                source(m["source_b"])
                m["mark_label"] = result_mark_label(m["mark"], m.pop("corrected_from"))
    return bracket


def match_race_label(m: dict[str, Any]) -> str:
    """«до 2 побед», «до 8 шаров»: a match's race, short, for the bracket."""
    parts = []
    frames, balls = m.get("frames_to_win"), m.get("balls_to_win")
    if frames and frames > 1:
        parts.append(ngettext("to %(n)s win", "to %(n)s wins", frames) % {"n": frames})
    if balls:
        parts.append(ngettext("to %(n)s ball", "to %(n)s balls", balls) % {"n": balls})
    return ", ".join(parts)


def standings_shown(standings: dict[str, Any]) -> dict[str, Any]:
    """Standings of the selectors (tournament_standings) with their groups' titles. In place."""
    for group in standings["groups"]:
        group["title"] = stage_title("group", group["group"])
    return standings


def group_results_shown(
    results: dict[int, list[dict[str, Any]]],
) -> dict[int, list[dict[str, Any]]]:
    """The group matches of matches.selectors.group_results, each with its result mark in
    words. In place."""
    for rows in results.values():
        for row in rows:
            row["mark_label"] = result_mark_label(row["mark"], row.pop("corrected_from"))
    return results


def names_of(match: Match) -> dict[str, str]:
    """The match's players by slot, as a page names them (a slot not decided yet says so)."""
    return {
        "a": match.player_a.name if match.player_a else _("to be decided"),
        "b": match.player_b.name if match.player_b else _("to be decided"),
    }


OTHER_SLOT = {"a": "b", "b": "a"}


def no_show_question(match: Match, absent: str) -> str:
    """The question before a no-show is recorded, with both players named: the absent one
    loses, the other is given the walkover — an organiser in a hurry sees whom he advances."""
    names = names_of(match)
    return _(
        "Record the no-show of %(absent)s in %(match)s? %(present)s is given the walkover."
    ) % {
        "absent": player_in_text(names[absent], "gen"),
        "match": match_in_text(match.key, "pre"),
        "present": player_in_text(names[OTHER_SLOT[absent]], "dat"),
    }


def walkover_question(match: Match, winner: str) -> str:
    """The question before the organiser's walkover, with both players named."""
    names = names_of(match)
    return _("Give %(winner)s the walkover over %(loser)s in %(match)s? This ends the match.") % {
        "winner": player_in_text(names[winner], "dat"),
        "loser": player_in_text(names[OTHER_SLOT[winner]], "ins"),
        "match": match_in_text(match.key, "pre"),
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
