"""The audit log as sentences in the reader's language: who (with the role he had), what,
with players' names and match numbers instead of ids. The raw data stays for the details."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from audit.models import AuditEntry
from matches import wording
from matches.models import Match
from matches.selectors import log_entry_words
from tournaments.audit_players import PLAYERS_AUDIT_ACTIONS
from tournaments.models import Player, Tournament
from tournaments.presentation import money
from tournaments.running_text import Case, match_in_text, player_in_text

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# Every action's name in the log (the players' side's are tournaments.audit_players').
AUDIT_ACTIONS = {
    "tournament_create": gettext_lazy("Tournament created"),
    "tournament_update": gettext_lazy("Settings changed"),
    "tournament_status": gettext_lazy("Status changed"),
    "tournament_draw": gettext_lazy("Draw made"),
    "tournament_referee_add": gettext_lazy("Referee added"),
    "tournament_referee_remove": gettext_lazy("Referee removed"),
    "player_create": gettext_lazy("Player created"),
    "player_update": gettext_lazy("Player changed"),
    "registration_add": gettext_lazy("Player registered"),
    "registration_paid": gettext_lazy("Fee marked paid"),
    "registration_unpaid": gettext_lazy("Fee marked unpaid"),
    "registration_withdraw": gettext_lazy("Player withdrew"),
    "registration_refund": gettext_lazy("Fee refunded"),
    "registration_close": gettext_lazy("Registration closed"),
    "table_time_paid": gettext_lazy("Table time paid"),
    "match_lateness": gettext_lazy("Lateness recorded"),
    "table_time_unpaid": gettext_lazy("Table time marked unpaid"),
    "registration_reopen": gettext_lazy("Registration reopened"),
    "registration_disqualify": gettext_lazy("Player disqualified"),
    "match.event": gettext_lazy("Event entered"),
    "match.undo": gettext_lazy("Event undone"),
    "match.clock_start": gettext_lazy("Clock started"),
    "match.clock_pause": gettext_lazy("Technical break"),
    "match.clock_resume": gettext_lazy("Clock resumed"),
    "match.clock_adjust": gettext_lazy("Time left changed"),
    "match.clock_expired": gettext_lazy("Time expired"),
    "match.finished": gettext_lazy("Match finished"),
    "match.walkover": gettext_lazy("Walkover"),
    "match.hold": gettext_lazy("Held back / released"),
    "match.judge_called": gettext_lazy("Judge called"),
    "match.judge_resolved": gettext_lazy("Judge call resolved"),
    "match.table_assigned": gettext_lazy("Sent to a table"),
    "match.table_moved": gettext_lazy("Moved to another table"),
    "match_correct_result": gettext_lazy("Result corrected"),
    "match_set_handicap": gettext_lazy("Head start overridden"),
    "table.freed": gettext_lazy("Table freed"),
    "tables.ensure": gettext_lazy("Tables in use set"),
    "referee_login_create": gettext_lazy("Referee login created"),
    "referee_password_reset": gettext_lazy("Referee's password reset"),
    "login_create": gettext_lazy("Login created"),
    "password_change": gettext_lazy("Own password changed"),
    "player_claim_issue": gettext_lazy("Login slip printed"),
    "player_link_login": gettext_lazy("Login linked"),
    "player_unlink_login": gettext_lazy("Login unlinked"),
    "player_rating_adjust": gettext_lazy("Rating adjusted"),
    "player_merge": gettext_lazy("Players merged"),
    "admin_change": gettext_lazy("Changed in the administration"),
}
AUDIT_ACTIONS.update(PLAYERS_AUDIT_ACTIONS)

# The filter of the log page by kind: a kind is a set of actions.
KINDS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "results": (
        gettext_lazy("Results and corrections"),
        ("match.finished", "match.walkover", "match_correct_result", "match.clock_expired"),
    ),
    "scoring": (gettext_lazy("Scoring"), ("match.event", "match.undo")),
    "tables": (
        gettext_lazy("Tables and clocks"),
        (
            "match.table_assigned",
            "match.table_moved",
            "table.freed",
            "tables.ensure",
            "match.hold",
            "match.clock_start",
            "match.clock_pause",
            "match.clock_resume",
            "match.clock_adjust",
            "match.judge_called",
            "match.judge_resolved",
        ),
    ),
    "registrations": (
        gettext_lazy("Registrations and fees"),
        (
            "registration_add",
            "registration_paid",
            "registration_unpaid",
            "registration_withdraw",
            "registration_refund",
            "table_time_paid",
            "table_time_unpaid",
            "player_create",
            "player_update",
        ),
    ),
    "settings": (
        gettext_lazy("Settings and status"),
        (
            "tournament_create",
            "tournament_update",
            "tournament_status",
            "registration_close",
            "registration_reopen",
            "tournament_draw",
            "tournament_archive",
            "tournament_unarchive",
            "match_race_change",
            "match_set_handicap",
            "tournament_referee_add",
            "tournament_referee_remove",
        ),
    ),
}
STATUS_NAMES: dict[str | None, StrPromise] = dict(Tournament.Status.choices)


def _score(a: Any, b: Any) -> str:
    if a is None or b is None:
        return "—"
    return f"{a}:{b}"


class Speaker:
    """Names and roles for one page of entries, read in three queries."""

    def __init__(self, tournament: Tournament | None, entries: list[AuditEntry]) -> None:
        _load_matches(entries)
        player_ids: set[int] = set()
        user_ids = {e.actor_id for e in entries if e.actor_id}
        for e in entries:
            data = e.data or {}
            for key in ("player", "winner", "loser"):
                if isinstance(data.get(key), int):
                    player_ids.add(data[key])
            for part in ("before", "after"):
                sub = data.get(part)
                if isinstance(sub, dict):
                    for key in ("winner", "loser"):
                        if isinstance(sub.get(key), int):
                            player_ids.add(sub[key])
            if e.player_id:
                player_ids.add(e.player_id)
        self.players = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))
        users = get_user_model().objects.filter(pk__in=user_ids)
        self.users = {u.pk: (u.get_full_name() or u.get_username()) for u in users}
        self.organisers: set[int] = set()
        self.referees: set[int] = set()
        if tournament is not None:
            self.organisers = set(tournament.organisers.values_list("pk", flat=True))
            self.referees = set(tournament.referees.values_list("pk", flat=True))

    def who(self, entry: AuditEntry) -> str:
        if entry.actor_id is None:
            return _("The system") if entry.actor_name in ("", "system") else entry.actor_name
        name = self.users.get(entry.actor_id, entry.actor_name)
        if entry.actor_id in self.organisers:
            return _("Organiser %(name)s") % {"name": name}
        if entry.actor_id in self.referees:
            return _("Referee %(name)s") % {"name": name}
        return name

    def player(self, pk: Any) -> str:
        return self.players.get(pk, "") if isinstance(pk, int) else ""


def _load_matches(entries: list[AuditEntry]) -> None:
    """Every entry's match with its players, in one query."""
    wanted = {e.match_id for e in entries if e.match_id and "match" not in e._state.fields_cache}
    if not wanted:
        return
    found = Match.objects.select_related("player_a", "player_b").in_bulk(wanted)
    for e in entries:
        if e.match_id in found:
            e.match = found[e.match_id]


def _match_names(entry: AuditEntry) -> dict[str, str]:
    match = entry.match
    if match is None:
        return {}
    return {
        "a": match.player_a.name if match.player_a else "",
        "b": match.player_b.name if match.player_b else "",
    }


@dataclass(frozen=True)
class _Said:
    """What every sentence of an entry draws on: its data, the speaker, the match's key, the
    common params (who, the match in the prepositional case) and the players by slot."""

    entry: AuditEntry
    data: dict[str, Any]
    speaker: Speaker
    key: str
    p: dict[str, Any]
    names: dict[str, str]

    def match(self, case: Case) -> str:
        return _in_text(self.key, case)


def sentence(entry: AuditEntry, speaker: Speaker) -> str:
    """One entry in words: the sentence of its action (_SENTENCES), or "who: what" with the
    action's label."""
    data = entry.data or {}
    key = entry.match.key if entry.match is not None else data.get("key", "")
    p = {"who": speaker.who(entry), "match": _in_text(key, "pre")}
    write = _SENTENCES.get(entry.action)
    if write is not None:
        return write(_Said(entry, data, speaker, key, p, _match_names(entry)))
    label = AUDIT_ACTIONS.get(entry.action)
    label_text = str(label) if label is not None else _("a change")
    if key:
        return _("%(who)s in %(match)s: %(what)s.") % {**p, "what": label_text}
    return _("%(who)s: %(what)s.") % {**p, "what": label_text}


def _result_corrected(s: _Said) -> str:
    before, after = s.data.get("before") or {}, s.data.get("after") or {}
    text = _("%(who)s: the result of %(match)s is corrected, was %(was)s, now %(now)s.") % {
        **s.p,
        "match": s.match("gen"),
        "was": _score(before.get("score_a"), before.get("score_b")),
        "now": _score(after.get("score_a"), after.get("score_b")),
    }
    winner = s.speaker.player(after.get("winner"))
    if winner:
        text += " " + _("Winner: %(name)s.") % {"name": winner}
    return _with_reason(text, s.data)


def _finished(s: _Said) -> str:
    score = s.data.get("score") or [None, None]
    return _("%(match)s is over: %(winner)s wins %(score)s.") % {
        **s.p,
        "match": capfirst(s.match("nom")),
        "winner": s.speaker.player(s.data.get("winner")),
        "score": _score(score[0], score[1]),
    }


def _walkover(s: _Said) -> str:
    return _with_reason(
        _("%(who)s: walkover in %(match)s, %(name)s goes on.")
        % {**s.p, "name": s.names.get(str(s.data.get("winner_slot")), "")},
        s.data,
    )


def _lateness(s: _Said) -> str:
    """A lateness tap: what it cost the late player, in its unit (balls, frames) or a walkover."""
    p = {**s.p, "name": s.names.get(str(s.data.get("slot")), ""), "m": s.data.get("minutes")}
    frames = s.data.get("frames")
    if s.data.get("walkover"):
        return _("%(who)s in %(match)s: %(name)s is %(m)s min late, a walkover.") % p
    if isinstance(frames, int) and frames > 0:
        return ngettext(
            "%(who)s in %(match)s: %(name)s is %(m)s min late, minus %(n)d frame "
            "(credited to the opponent).",
            "%(who)s in %(match)s: %(name)s is %(m)s min late, minus %(n)d frames "
            "(credited to the opponent).",
            frames,
        ) % {**p, "n": frames}
    return _("%(who)s in %(match)s: %(name)s is %(m)s min late, minus %(n)s balls.") % {
        **p,
        "n": s.data.get("balls", 0),
    }


def _ball(s: _Said) -> str:
    # The entry undone, or the one made: in its discipline's words.
    words = log_entry_words("event", s.data.get("event") or {}, s.entry.match)
    event = wording.say(words, s.names)
    if s.entry.action == "match.undo":
        return _("%(who)s undid in %(match)s: %(event)s.") % {**s.p, "event": event}
    return _("%(who)s in %(match)s: %(event)s.") % {**s.p, "event": event}


def _clock_expired(s: _Said) -> str:
    return _("Time is up in %(match)s.") % s.p


def _table_assigned(s: _Said) -> str:
    return _("%(who)s sent %(match)s to table %(table)s.") % {
        **s.p,
        "match": s.match("nom"),
        "table": s.data.get("table", ""),
    }


def _table_freed(s: _Said) -> str:
    return _("%(who)s freed table %(table)s.") % {
        **s.p,
        "match": s.match("nom"),
        "table": s.data.get("table", ""),
    }


def _table_moved(s: _Said) -> str:
    return _("%(who)s moved %(match)s from table %(from)s to table %(to)s.") % {
        **s.p,
        "match": s.match("nom"),
        "from": s.data.get("from") or "—",
        "to": s.data.get("to", ""),
    }


def _handicap(s: _Said) -> str:
    after = s.data.get("after") or {}
    head = after.get("head_start") or {}
    return _("%(who)s set the head start in %(match)s: %(a)s and %(b)s, race to %(n)s.") % {
        **s.p,
        "a": head.get("a", 0),
        "b": head.get("b", 0),
        "n": after.get("balls_to_win", ""),
    }


def _race_changed(s: _Said) -> str:
    return _("%(who)s changed the race of %(match)s: was %(was)s, now %(now)s.") % {
        **s.p,
        "match": s.match("gen"),
        "was": _race_words(s.data.get("before") or {}),
        "now": _race_words(s.data.get("after") or {}),
    }


def _registered_name(s: _Said, case: Case) -> str:
    return player_in_text(s.speaker.player(s.data.get("player")) or s.data.get("name", ""), case)


def _registered(s: _Said) -> str:
    return _("%(who)s registered %(name)s.") % {**s.p, "name": _registered_name(s, "nom")}


def _paid(s: _Said) -> str:
    return _("%(who)s marked the fee of %(name)s as paid (%(fee)s).") % {
        **s.p,
        "name": _registered_name(s, "gen"),
        "fee": money(s.data.get("fee")),
    }


def _unpaid(s: _Said) -> str:
    return _("%(who)s marked the fee of %(name)s as not paid.") % {
        **s.p,
        "name": _registered_name(s, "gen"),
    }


def _their_name(s: _Said) -> str:
    return s.speaker.player(s.data.get("player")) or s.speaker.player(s.entry.player_id)


def _refunded(s: _Said) -> str:
    return _("%(who)s refunded the fee of %(name)s (%(fee)s).") % {
        **s.p,
        "name": _their_name(s),
        "fee": money(s.data.get("amount")),
    }


def _withdrawn(s: _Said) -> str:
    return _with_reason(
        _("%(who)s withdrew %(name)s.") % {**s.p, "name": player_in_text(_their_name(s), "nom")},
        s.data,
    )


def _status(s: _Said) -> str:
    return _("%(who)s: the tournament is now “%(to)s” (was “%(from)s”).") % {
        **s.p,
        "to": STATUS_NAMES.get(s.data.get("to"), s.data.get("to", "")),
        "from": STATUS_NAMES.get(s.data.get("from"), s.data.get("from", "")),
    }


def _settings_changed(s: _Said) -> str:
    return _("%(who)s changed the settings: %(fields)s.") % {
        **s.p,
        "fields": ", ".join(_field_name(f) for f in s.data.get("changed", [])),
    }


def _drawn(s: _Said) -> str:
    n = int(s.data.get("players") or 0)
    return ngettext(
        "%(who)s made the draw for %(n)s player.",
        "%(who)s made the draw for %(n)s players.",
        n,
    ) % {**s.p, "n": n}


def _referee_added(s: _Said) -> str:
    return _("%(who)s added referee %(name)s.") % {**s.p, "name": s.data.get("username", "")}


def _referee_removed(s: _Said) -> str:
    return _("%(who)s took referee %(name)s off the tournament.") % {
        **s.p,
        "name": s.data.get("username", ""),
    }


# The actions said in a sentence of their own; the others are "who: what" (AUDIT_ACTIONS).
_SENTENCES: dict[str, Callable[[_Said], str]] = {
    "match_correct_result": _result_corrected,
    "match.finished": _finished,
    "match.walkover": _walkover,
    "match.event": _ball,
    "match.undo": _ball,
    "match.clock_expired": _clock_expired,
    "match.table_assigned": _table_assigned,
    "table.freed": _table_freed,
    "match.table_moved": _table_moved,
    "match_set_handicap": _handicap,
    "match_lateness": _lateness,
    "match_race_change": _race_changed,
    "registration_add": _registered,
    "registration_paid": _paid,
    "registration_unpaid": _unpaid,
    "registration_refund": _refunded,
    "registration_withdraw": _withdrawn,
    "tournament_status": _status,
    "tournament_update": _settings_changed,
    "tournament_draw": _drawn,
    "tournament_referee_add": _referee_added,
    "tournament_referee_remove": _referee_removed,
}


def _in_text(key: str, case: Case) -> str:
    """The match in the case the sentence needs («в матче «В2-4»»), or nothing."""
    return match_in_text(key, case) if key else ""


def _with_reason(text: str, data: dict[str, Any]) -> str:
    reason = data.get("reason")
    if reason and isinstance(reason, str):
        return text + " " + _("Reason: %(reason)s.") % {"reason": reason.rstrip(".")}
    return text


def _race_words(race: dict[str, Any]) -> str:
    parts = []
    frames = race.get("frames_to_win")
    if frames and frames > 1:
        parts.append(ngettext("%(n)s frame", "%(n)s frames", frames) % {"n": frames})
    balls = race.get("balls_to_win")
    if balls:
        parts.append(ngettext("to %(n)s ball", "to %(n)s balls", balls) % {"n": balls})
    minutes = race.get("minutes")
    if minutes:
        parts.append(_("%(n)s min") % {"n": minutes})
    return ", ".join(parts) or "—"


def _field_name(field: str) -> str:
    try:
        return str(Tournament._meta.get_field(field).verbose_name)  # type: ignore[union-attr]
    except Exception:  # a setting that is not a column (none today): its key
        return field


def audit_rows(
    entries: Iterable[AuditEntry], tournament: Tournament | None = None
) -> list[dict[str, Any]]:
    """The entries with their sentences, for a page."""
    entries = list(entries)
    speaker = Speaker(tournament, entries)
    return [{"entry": e, "text": sentence(e, speaker)} for e in entries]
