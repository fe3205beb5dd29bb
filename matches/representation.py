"""A match as the API shows it (MatchDetailSerializer declares the same fields): built directly,
for every read and every write of a match, the referee form's first data included.

The engine's words (rules.words.Text, msgids with params) are put into the request's language
here: the discipline's state view and its entry become plain JSON with strings where the texts
were, so a page (the referee form) shows any discipline without a catalogue of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, ngettext

import rules
from matches import selectors, wording
from matches.models import Match, MatchEvent
from matches.selectors import has_time_rule


def _player_data(player: Any) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": str(player.name),
        "rating": int(player.rating),
        "club": str(player.club),
        "city": str(player.city),
    }


def head_start_data(match: Match) -> dict[str, int]:
    ruleset = (match.state or {}).get("ruleset") or match.ruleset or {}
    head = ruleset.get("head_start") or {}
    return {"a": head.get("a", 0), "b": head.get("b", 0)}


# get_status_display() rebuilds a dict of every choice on each call.
STATUS_LABELS = dict(Match.Status.choices)


def match_data(match: Match, *, entry: bool = False) -> dict[str, Any]:
    """What MatchDetailSerializer declares, for one match (its tournament, players and table
    loaded with it). `view` is the discipline's view of the state and, with ``entry`` (for
    those who may score it), `entry` is what the referee may enter now; both in the active
    language. Otherwise `entry` is null."""
    table = match.table
    when = selectors.timestamp
    state = selectors.result_state(match)
    # Before the first event the state is empty: the ruleset names the discipline.
    described = state or {"ruleset": match.ruleset or {}}
    names = {"a": "—", "b": "—", **selectors.match_player_names(match=match)}
    return {
        "id": match.pk,
        "tournament": match.tournament_id,
        "key": str(match.key),
        "stage": str(match.stage),
        "round": int(match.round),
        "order": int(match.order),
        "group": match.group,
        "status": str(match.status),
        "status_display": str(STATUS_LABELS.get(match.status, match.status)),
        "held": bool(match.held),
        "self_scoring": bool(match.tournament.self_scoring),
        "break_by_lag": bool(match.tournament.break_by_lag),
        "players": {"a": _player_data(match.player_a), "b": _player_data(match.player_b)},
        "head_start": head_start_data(match),
        "ruleset": match.ruleset,
        "table": None
        if table is None
        else {"id": table.pk, "number": int(table.number), "label": str(table.label)},
        "called_at": when(match.called_at),
        "version": int(match.version),
        "state": state,
        "view": state_view_data(described, names),
        "entry": entry_data(described, names) if entry else None,
        "score": selectors.match_score_summary(match, state),
        "clock": clock_data(match),
        "judge": judge_data(match),
        "winner": selectors.winning_slot(match),
        "result": str(match.result),
        "score_a": match.score_a,
        "score_b": match.score_b,
        "correction": selectors.correction_data(match),
        "started_at": when(match.started_at),
        "finished_at": when(match.finished_at),
        "last_events": last_events_data(match, names),
    }


def last_events_data(match: Match, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The match's newest log entries (Match.recent_log) as the API shows them, each with its
    sentence in the active language (`text`)."""
    return [log_entry_shown(kept, match, names) for kept in match.recent_log]


def log_entry_shown(
    kept: Mapping[str, Any], match: Match, names: Mapping[str, str]
) -> dict[str, Any]:
    """A kept log entry with its sentence in the active language: the one rendered when it
    was appended; worded now only for an entry kept before the log had sentences."""
    texts = kept.get("texts")
    text = wording.in_language(texts) if texts else None
    if text is None:
        words = selectors.log_entry_words(kept["kind"], kept["event"], match)
        text = wording.say(words, names)
    shown = {key: value for key, value in kept.items() if key != "texts"}
    shown["text"] = text
    return shown


def log_event_data(entry: MatchEvent, match: Match, names: Mapping[str, str]) -> dict[str, Any]:
    """One entry of the log read from the database (the log's pages), with its sentence."""
    words = selectors.log_entry_words(entry.kind, entry.payload, match)
    return {**selectors.log_entry_data(entry), "text": wording.say(words, names)}


def clock_data(match: Match) -> dict[str, Any]:
    """What MatchClockSerializer declares."""
    now = timezone.now()
    reading = selectors.match_clock(match=match, now=now)
    when = selectors.timestamp
    return {
        "limit_seconds": reading.limit_seconds,
        "elapsed_seconds": int(reading.elapsed_seconds),
        "remaining_seconds": reading.remaining_seconds,
        "deadline": when(reading.deadline),
        "running": bool(reading.running),
        "paused": match.status == Match.Status.PAUSED,
        "expired": bool(reading.expired),
        "expired_at": when(match.clock_expired_at),
        "warning": bool(reading.warning) and match.status not in selectors.CLOSED,
        "ends_match": has_time_rule(match),
        "server_time": when(now),
    }


def judge_data(match: Match) -> dict[str, Any]:
    """What MatchJudgeCallSerializer declares."""
    return {
        "called": match.judge_called_at is not None,
        "called_at": selectors.timestamp(match.judge_called_at),
        "note": str(match.judge_note),
    }


# --- the discipline's description, translated --------------------------------------------


def translated(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with every Text inside it (nested anywhere in dicts and lists) rendered in the
    active language, player references filled in with ``names``."""
    return rules.render_all(value, gettext=gettext, ngettext=ngettext, names=names)


def state_view_data(state: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The discipline's view of the state, translated (rules.describe.StateView)."""
    out: dict[str, Any] = translated(rules.state_view(state), names)
    return out


def entry_data(state: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """What the referee may enter now, translated (rules.describe.Entry); each kind also says
    which of its values end the match (`finishing`), so that the form asks to confirm them
    without knowing a rule."""
    described = rules.entry(state)
    out: dict[str, Any] = translated(described, names)
    finishing = rules.finishing_values(state, described["kinds"])
    for kind, shown, values in zip(described["kinds"], out["kinds"], finishing, strict=True):
        shown["finishing"] = values
        shown["results"] = [finishing_result(state, kind, v) for v in values]
    return out


def finishing_result(
    state: dict[str, Any], kind: rules.EventKind, values: Mapping[str, int]
) -> dict[str, Any]:
    """The result these finishing values leave (score a:b and the winner), as the engine
    plays them, so that the form's confirmation says it without a second engine."""
    after = rules.apply(dict(state), rules.build_event(kind, dict(values)))
    a, b = rules.of_state(after).result_score(after)
    return {"a": a, "b": b, "winner": after.get("winner")}
