"""A tournament's regulation in words: its discipline, race, format, handicap, time limit and
entry fees, for the public page, the panel and the diplomas."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from audit.models import AuditEntry
from matches.selectors import discipline_of
from matches.wording import discipline_label, say
from tournaments.algorithms import handicap
from tournaments.models import Tournament
from tournaments.presentation import money
from tournaments.services.entry_rules import limits_text

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


def race_words(ruleset: dict[str, Any]) -> str:
    """The race in words, as the ruleset's discipline states it."""
    return ", ".join(say(part) for part in discipline_of(ruleset).regulation(ruleset)["race"])


_race = race_words  # the name the tests of the plural words import


def _races(tournament: Tournament) -> list[int]:
    """Every race to N balls the tournament's stages play, in order, once each."""
    base = (tournament.ruleset or {}).get("balls_to_win")
    races = [base] if base else []
    for overrides in (tournament.stage_rules or {}).values():
        if overrides.get("balls_to_win"):
            races.append(overrides["balls_to_win"])
    return list(dict.fromkeys(int(r) for r in races))


def _scaled(tournament: Tournament, scheme: handicap.RaceScheme) -> list[str]:
    """How a race scheme fits each other race the tournament plays (the scaling rule)."""
    return [
        _(
            "for a race to %(base)d it is scaled to the race to %(n)d: proportionally, rounded "
            "down, at most %(max)d"
        )
        % {"base": scheme.base, "n": n, "max": handicap.max_head_start(n)}
        for n in _races(tournament)
        if n != scheme.base
    ]


def regulation(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules as (label, value) lines for the public page."""
    ruleset = dict(tournament.ruleset or {})
    lines: list[tuple[str, str]] = [
        (_("Discipline"), discipline_label(tournament.discipline)),
        (_("Race"), _race({"discipline": tournament.discipline, **ruleset})),
    ]
    for stage, all_overrides in (tournament.stage_rules or {}).items():
        overrides = {k: v for k, v in all_overrides.items() if k != "pair_race"}
        if overrides.get("balls_to_win") or overrides.get("frames_to_win"):
            lines.append(
                (
                    str(STAGE_NAMES.get(stage, stage)),
                    _race({"discipline": tournament.discipline, **ruleset, **overrides}),
                )
            )
        if all_overrides.get("pair_race"):
            lines.append(
                (
                    str(STAGE_NAMES.get(stage, stage)),
                    pair_race_words(
                        tournament, {**ruleset, **overrides}, all_overrides["pair_race"]
                    ),
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
    lines.append((_("Format"), format_words(tournament)))
    scheme = tournament.handicap_scheme
    preset = handicap.SCHEMES.get(scheme)
    handicap_text = str(HANDICAP_TITLES.get(scheme) or (preset.title if preset else scheme))
    if preset is not None and isinstance(preset.scheme, handicap.RaceScheme):
        handicap_text = "; ".join((handicap_text, *_scaled(tournament, preset.scheme)))
    lines.append((_("Handicap"), handicap_text))
    lines.extend(entry_lines(tournament))
    lines.append(table_time_line(tournament))
    lines.append((_("Lateness"), lateness_rule(tournament) or _("no penalty")))
    lines.append((_("No-show"), no_show_words(tournament)))
    lines.append((_("Fee of a player who withdraws"), str(tournament.get_withdrawal_fee_display())))
    lines.append(
        (
            _("Prize of a withdrawn or disqualified player"),
            str(tournament.get_withdrawn_prize_display()),
        )
    )
    return lines


def pair_race_words(tournament: Tournament, ruleset: dict[str, Any], pair: dict[str, Any]) -> str:
    """«by the pair's rating sum: up to 1700 — …; above — …»."""
    parts = []
    previous = None
    for band in pair["bands"]:
        race = _race(
            {
                "discipline": tournament.discipline,
                **ruleset,
                **{k: v for k, v in band.items() if k != "up_to"},
            }
        )
        if band["up_to"] is None:
            when = _("above %(n)s") % {"n": previous} if previous is not None else _("any")
        else:
            when = _("up to %(n)s") % {"n": band["up_to"]}
        parts.append(f"{when} — {race}")
        previous = band["up_to"]
    head = (
        _("by the pair's rating sum")
        if pair["by"] == "sum"
        else _("by the pair's rating difference")
    )
    return f"{head}: " + "; ".join(parts)


def format_words(tournament: Tournament) -> str:
    """The system of the tournament in words («С выбыванием после двух поражений…»)."""
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
    return fmt


def no_show_words(tournament: Tournament) -> str:
    """What a no-show costs: where there is no lower bracket (single elimination, groups and
    play-off) the player who did not come is simply out."""
    if tournament.format in (Tournament.Format.SINGLE, Tournament.Format.GROUPS_PLAYOFF):
        return _("Loses by walkover and is out of the tournament")
    return str(tournament.get_no_show_rule_display())


def paper_heading(tournament: Tournament) -> list[tuple[str, str]]:
    """What a printout's heading states of the rules: discipline, race, system."""
    ruleset = {"discipline": tournament.discipline, **dict(tournament.ruleset or {})}
    return [
        (_("Discipline"), discipline_label(tournament.discipline)),
        (_("Race"), race_words(ruleset)),
        (_("Format"), format_words(tournament)),
    ]


def paper_date(value: Any) -> str:
    """A date as paper writes it: «5 декабря 2026 г.»."""
    return pgettext("diploma date", "%(date)s") % {"date": date_format(value, "j E Y")}


def table_time_line(tournament: Tournament) -> tuple[str, str]:
    """Who pays for the table and how much, in words."""
    payer = tournament.table_time_payer
    if tournament.table_hour_price <= 0 or payer == Tournament.TableTimePayer.NOBODY:
        return (_("Table time"), _("not charged"))
    parts = [
        _("%(price)s an hour") % {"price": money(tournament.table_hour_price)},
        _("paid by the loser") if payer == Tournament.TableTimePayer.LOSER else _("half each"),
    ]
    if tournament.table_time_discount:
        parts.append(_("discount %(d)s%%") % {"d": _percent(tournament.table_time_discount)})
    parts.append(
        _("from the call to the table to the end of the match")
        if tournament.table_time_breaks == Tournament.TableTimeBreaks.INCLUDED
        else _("from the call to the table to the end of the match, technical breaks excluded")
    )
    return (_("Table time"), ", ".join(parts))


def _when(value: Any) -> str:
    moment = localtime(value)
    return f"{paper_date(moment)}, {date_format(moment, 'H:i')}"


def entry_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """How players enter: the field's size, online entry, rating limits, check-in."""
    lines = [(_("Players"), _("at most %(n)d") % {"n": tournament.max_players})]
    if tournament.online_entry:
        window = [_("online and at the desk")]
        if tournament.entry_opens_at:
            window.append(_("opens %(when)s") % {"when": _when(tournament.entry_opens_at)})
        if tournament.entry_closes_at:
            window.append(_("closes %(when)s") % {"when": _when(tournament.entry_closes_at)})
        window.append(_("past the maximum, on the reserve list in order of entry"))
        lines.append((_("Entry"), ", ".join(window)))
    else:
        lines.append((_("Entry"), _("at the desk")))
    limits = limits_text(tournament)
    if limits:
        lines.append((_("Ratings admitted"), limits))
    lines.append(
        (
            _("Check-in"),
            _(
                "at the desk before the draw; players not checked in may be removed and "
                "checked-in reserves move up in order"
            ),
        )
    )
    return lines


def prize_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """The prize fund in words: its share of the fees kept, added money, the split."""
    fund = _("%(p)s%% of the entry fees kept") % {"p": _percent(tournament.pool_percent)}
    if tournament.added_money:
        fund = f"{fund} + {money(tournament.added_money)}"
    split = " · ".join(
        _("%(place)d: %(share)s%%") % {"place": i, "share": _percent(share)}
        for i, share in enumerate(tournament.place_shares, start=1)
    )
    return [
        (_("Prize fund"), fund),
        (_("Split by places"), split),
        (_("Prizes rounded to"), money(tournament.prize_unit)),
        (_("Diplomas"), str(tournament.get_diploma_places_display())),
        (_("Rating"), _("counts for the rating") if tournament.rated else _("not rated")),
    ]


def _percent(value: Any) -> str:
    text = format(Decimal(str(value)).normalize(), "f")
    return text


def regulation_document(tournament: Tournament) -> list[tuple[str, list[tuple[str, str]]]]:
    """The whole regulation as the club prints it: sections of (label, value) lines."""
    general = [
        (_("Tournament"), tournament.name),
        (_("Date"), paper_date(tournament.date)),
    ]
    if tournament.venue:
        general.append((_("Venue"), tournament.venue))
    if tournament.organiser_name:
        general.append((_("Organiser"), tournament.organiser_name))
    if tournament.chief_judge:
        general.append((_("Chief judge"), tournament.chief_judge))
    play = regulation(tournament)
    entry_labels = {label for label, _value in entry_lines(tournament)}
    conduct_labels = {
        str(_("No-show")),
        str(_("Fee of a player who withdraws")),
        str(_("Prize of a withdrawn or disqualified player")),
        str(_("Table time")),
        str(_("Lateness")),
    }
    rules_lines = [
        line for line in play if line[0] not in entry_labels and line[0] not in conduct_labels
    ]
    fees = [(label, money(fee)) for label, fee in fee_lines(tournament)]
    entry = [
        *entry_lines(tournament),
        *fees,
        (_("Fee of a player who withdraws"), str(tournament.get_withdrawal_fee_display())),
    ]
    prizes = [
        *prize_lines(tournament),
        (
            _("Prize of a withdrawn or disqualified player"),
            str(tournament.get_withdrawn_prize_display()),
        ),
    ]
    conduct = [
        (_("Lateness"), lateness_rule(tournament) or _("no penalty")),
        (_("No-show"), no_show_words(tournament)),
        table_time_line(tournament),
    ]
    return [
        (_("General"), general),
        (_("Rules of play and system"), rules_lines),
        (_("Entry and fees"), entry),
        (_("Prizes"), prizes),
        (_("Lateness, no-show and table time"), conduct),
    ]


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


def lateness_rule(tournament: Tournament) -> str:
    """The lateness rule in words; "" when the tournament has none."""
    step, limit = tournament.lateness_step_minutes, tournament.lateness_walkover_minutes
    parts = []
    n = tournament.lateness_penalty_balls
    if step and tournament.lateness_penalty_unit == Tournament.LatenessUnit.FRAMES:
        parts.append(
            ngettext(
                "every %(step)d min late from the call: minus %(n)d frame",
                "every %(step)d min late from the call: minus %(n)d frames",
                n,
            )
            % {"step": step, "n": n}
        )
    elif step:
        parts.append(
            ngettext(
                "every %(step)d min late from the call: minus %(n)d ball",
                "every %(step)d min late from the call: minus %(n)d balls",
                n,
            )
            % {"step": step, "n": n}
        )
    if limit:
        parts.append(_("%(n)d min late: a walkover") % {"n": limit})
    return "; ".join(parts)


def lateness_done(done: dict[str, Any]) -> str:
    """What one lateness tap did (tournaments.services.match_lateness's answer), in words."""
    if done["walkover"]:
        return _("%(m)s min late: the match is a walkover.") % {"m": done["minutes"]}
    if done.get("frames"):
        return ngettext(
            "%(m)s min late: minus %(n)d frame.",
            "%(m)s min late: minus %(n)d frames.",
            done["frames"],
        ) % {"m": done["minutes"], "n": done["frames"]}
    return _("%(m)s min late: minus %(n)s balls.") % {"m": done["minutes"], "n": done["balls"]}


def lateness_frames_words(who: str, minutes: Any, frames: int) -> str:
    """«Иванов: опоздание 16 мин, −1 партия»: what lateness cost in frames."""
    return ngettext(
        "%(who)s: %(m)s min late, −%(n)d frame",
        "%(who)s: %(m)s min late, −%(n)d frames",
        frames,
    ) % {"who": who, "m": minutes, "n": frames}


def lateness_log(match: Any) -> list[str]:
    """What lateness cost in this match, oldest first, in words."""
    entries = AuditEntry.objects.filter(match_id=match.pk, action="match_lateness").order_by("pk")
    names = {"a": str(match.player_a or ""), "b": str(match.player_b or "")}
    lines = []
    for entry in entries:
        data = entry.data or {}
        who = names.get(str(data.get("slot")), "")
        if data.get("walkover"):
            lines.append(
                _("%(who)s: %(m)s min late, a walkover") % {"who": who, "m": data.get("minutes")}
            )
        elif data.get("frames"):
            lines.append(lateness_frames_words(who, data.get("minutes"), int(data["frames"])))
        else:
            lines.append(
                _("%(who)s: %(m)s min late, minus %(n)s balls")
                % {"who": who, "m": data.get("minutes"), "n": data.get("balls")}
            )
    return lines
