"""A tournament's regulation in words: its discipline, race, format, handicap, time limit and
entry fees, for the public page, the panel and the diplomas."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from matches.selectors import discipline_of
from matches.wording import discipline_label, say
from tournaments.algorithms import handicap
from tournaments.models import Tournament

# The handicap presets' titles are English data; these marks let the UI translate them.
HANDICAP_TITLES = {
    "race_2_per_50": gettext_lazy("Race: 2 balls per 50 rating points, at most 12"),
    "llb_1": gettext_lazy("LLB scheme 1: frames to 8, a pair per 50 rating points"),
    "llb_4": gettext_lazy("LLB scheme 4: frames to 8, a pair per 100 rating points"),
    "none": gettext_lazy("No handicap"),
}


STAGE_NAMES = {
    "upper": gettext_lazy("Upper bracket"),
    "lower": gettext_lazy("Lower bracket"),
    "playoff": gettext_lazy("Play-off"),
    "grand_final": gettext_lazy("Final"),
    "group": gettext_lazy("Groups"),
}


def _race(ruleset: dict[str, Any]) -> str:
    """The race in words, as the ruleset's discipline states it."""
    return ", ".join(say(part) for part in discipline_of(ruleset).regulation(ruleset)["race"])


def regulation(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules as (label, value) lines for the public page."""
    ruleset = dict(tournament.ruleset or {})
    lines: list[tuple[str, str]] = [
        (_("Discipline"), discipline_label(tournament.discipline)),
        (_("Race"), _race({"discipline": tournament.discipline, **ruleset})),
    ]
    for stage, overrides in (tournament.stage_rules or {}).items():
        if overrides.get("balls_to_win") or overrides.get("frames_to_win"):
            lines.append(
                (
                    str(STAGE_NAMES.get(stage, stage)),
                    _race({"discipline": tournament.discipline, **ruleset, **overrides}),
                )
            )
    terms = discipline_of({"discipline": tournament.discipline, **ruleset}).regulation(ruleset)
    if terms["terms"]:
        lines.append((_("Rules"), ", ".join(say(term) for term in terms["terms"])))
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
    lines.append((_("Fee of a player who withdraws"), str(tournament.get_withdrawal_fee_display())))
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
