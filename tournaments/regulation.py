"""A tournament's regulation in words: its discipline, race, format, handicap, time limit and
entry fees, for the public page, the panel and the diplomas."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.algorithms import handicap
from tournaments.models import Tournament

# The handicap presets' titles are English data; these marks let the UI translate them.
HANDICAP_TITLES = {
    "race_2_per_50": gettext_lazy("Race: 2 balls per 50 rating points, at most 12"),
    "llb_1": gettext_lazy("LLB scheme 1: frames to 8, a pair per 50 rating points"),
    "llb_4": gettext_lazy("LLB scheme 4: frames to 8, a pair per 100 rating points"),
    "none": gettext_lazy("No handicap"),
}


DISCIPLINES = {
    "free_pyramid": gettext_lazy("Free pyramid"),
    "duplex": gettext_lazy("Duplex"),
}


STAGE_NAMES = {
    "upper": gettext_lazy("Upper bracket"),
    "lower": gettext_lazy("Lower bracket"),
    "playoff": gettext_lazy("Play-off"),
    "grand_final": gettext_lazy("Final"),
    "group": gettext_lazy("Groups"),
}


def _race(ruleset: dict[str, Any]) -> str:
    if ruleset.get("discipline") == "duplex":
        return _("A game of three frames (plus and minus points)")
    balls = int(ruleset.get("balls_to_win", 30))
    frames = int(ruleset.get("frames_to_win", 1))
    if frames > 1:
        return ", ".join(
            (
                ngettext("To %(n)d frame won", "To %(n)d frames won", frames) % {"n": frames},
                ngettext("a frame to %(n)d ball", "a frame to %(n)d balls", balls) % {"n": balls},
            )
        )
    return ngettext("Race to %(n)d ball", "Race to %(n)d balls", balls) % {"n": balls}


def regulation(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules as (label, value) lines for the public page."""
    ruleset = dict(tournament.ruleset or {})
    lines: list[tuple[str, str]] = [
        (_("Discipline"), str(DISCIPLINES.get(tournament.discipline, tournament.discipline))),
        (_("Race"), _race(ruleset)),
    ]
    for stage, overrides in (tournament.stage_rules or {}).items():
        if overrides.get("balls_to_win") or overrides.get("frames_to_win"):
            lines.append((str(STAGE_NAMES.get(stage, stage)), _race({**ruleset, **overrides})))
    if ruleset.get("discipline", tournament.discipline) == "free_pyramid":
        terms = []
        if ruleset.get("continuation", True):
            terms.append(_("with continuation"))
        if ruleset.get("direct_call", True):
            terms.append(_("direct call, fools do not count"))
        if ruleset.get("strict_break", True):
            terms.append(_("strict break"))
        if ruleset.get("penalty", "shelf_to_table") == "shelf_to_table":
            terms.append(_("a foul costs a ball from the shelf"))
        else:
            terms.append(_("after a foul the opponent takes a ball"))
        lines.append((_("Rules"), ", ".join(terms)))
    if tournament.time_limit_minutes:
        hours, minutes = divmod(tournament.time_limit_minutes, 60)
        value = (
            _("%(h)s h %(m)02d min of net playing time") % {"h": hours, "m": minutes}
            if hours
            else _("%(m)s min of net playing time") % {"m": minutes}
        )
        lines.append((_("Match time limit"), value))
    else:
        lines.append((_("Match time limit"), _("none")))
    fmt = str(tournament.get_format_display())
    if tournament.format == Tournament.Format.DOUBLE_TO_SINGLE and tournament.playoff_size:
        # The format's own name already says "then single elimination": say it once.
        fmt = ngettext(
            "Double elimination until %(n)d player is left, then single elimination",
            "Double elimination until %(n)d players are left, then single elimination",
            tournament.playoff_size,
        ) % {"n": tournament.playoff_size}
    if tournament.format == Tournament.Format.GROUPS_PLAYOFF and tournament.group_size:
        fmt = ", ".join(
            (
                fmt,
                ngettext("groups of %(n)d player", "groups of %(n)d players", tournament.group_size)
                % {"n": tournament.group_size},
                ngettext(
                    "%(n)d advances from each group",
                    "%(n)d advance from each group",
                    tournament.group_advance or 0,
                )
                % {"n": tournament.group_advance or 0},
            )
        )
    lines.append((_("Format"), fmt))
    scheme = tournament.handicap_scheme
    preset = handicap.SCHEMES.get(scheme)
    lines.append(
        (_("Handicap"), str(HANDICAP_TITLES.get(scheme) or (preset.title if preset else scheme)))
    )
    lines.append((_("No-show"), str(tournament.get_no_show_rule_display())))
    lines.append(
        (
            _("Prize of a withdrawn or disqualified player"),
            str(tournament.get_withdrawn_prize_display()),
        )
    )
    return lines


def fee_lines(tournament: Tournament) -> list[tuple[str, Any]]:
    bands = tournament.fee_bands or []
    if not bands:
        return [(_("Entry fee"), tournament.entry_fee)]
    lines = []
    for band in bands:
        low, high = band.get("min_rating"), band.get("max_rating")
        if low is None:
            label = _("rating up to %(high)s") % {"high": high}
        elif high is None:
            label = _("rating %(low)s and above") % {"low": low}
        else:
            label = _("rating %(low)s–%(high)s") % {"low": low, "high": high}
        lines.append((label, band.get("fee")))
    return lines
