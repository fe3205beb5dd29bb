"""What a scoreboard shows of a match, for every face that shows one (the public scoreboard and
overlay, a tournament's live matches, the referee's home, the table board, match control):
the score, the clock, the last events in words."""

from __future__ import annotations

from typing import Any, cast

from django.utils.dateparse import parse_datetime

from matches import selectors, wording
from matches.models import Match
from matches.representation import log_entry_shown, log_event_data, translated
from matches.selectors import winning_slot
from tournaments.presentation import match_title, names_of, stage_label

SCOREBOARD_EVENTS = 8


def clock_view(match: Match, now: Any = None) -> dict[str, Any]:
    """The clock as a page draws it (static/js/clock.js counts down from `remaining`)."""
    reading = selectors.match_clock(match=match, now=now)
    started = match.status not in (
        Match.Status.SCHEDULED,
        Match.Status.READY,
        Match.Status.ON_TABLE,
    )
    return {
        "limit": reading.limit_seconds,
        "remaining": reading.remaining_seconds,
        "elapsed": reading.elapsed_seconds,
        "running": reading.running,
        "paused": match.status == Match.Status.PAUSED,
        "expired": reading.expired,
        "warning": reading.warning,
        "started": started,
    }


def state_view(match: Match, names: dict[str, str] | None = None) -> dict[str, Any]:
    """What every page shows of the match: its discipline's view (rules' StateView) of the
    state readers are shown (selectors.result_state), its texts in words. One source: the
    pages do not compute a discipline's figures themselves."""
    state = selectors.result_state(match)
    view = selectors.discipline_of(state, match.ruleset).state_view(state)
    return cast(dict[str, Any], translated(view, names if names is not None else names_of(match)))


def score_view(match: Match, names: dict[str, str] | None = None) -> dict[str, Any]:
    """Scores for a scoreboard, from the discipline's view (`view`): the headline numbers
    (the final score once finished), frames won, whose turn; the view's parts for the
    shared renderer (templates/matches/_state_view.html)."""
    # Once there is a result, the state shown is that result (selectors.result_state): a
    # corrected score or a walkover, not what the table's log folds to.
    view = state_view(match, names)
    score = view["score"]
    if match.status in selectors.WITH_RESULT and match.winner_id and match.score_a is None:
        score = {"a": None, "b": None}  # a walkover without a score shows none
    elif score.get("a") is None and score.get("b") is None:
        score = {"a": match.score_a, "b": match.score_b}
    return {
        "view": view,
        "score": score,
        "score_label": view["score_label"],
        "frames": view["frames"],
        "turn": view["turn"],
        "head": {
            p: next(
                (f["value"] for f in view["players"][p]["facts"] if f["key"] == "head_start"), 0
            )
            for p in ("a", "b")
        },
        "head_start": view["features"]["head_start"],
        "on_table": view["table"]["balls"],
        "frame": view["frame"]["number"],
        "rack": view["frame"]["rack"],
    }


def described_events(match: Match, names: dict[str, str], limit: int) -> list[dict[str, Any]]:
    """The newest `limit` log entries in words, newest first: from the match row's last
    events when they reach that far (a scoreboard), else from the log."""
    if limit <= selectors.LAST_EVENTS:
        entries = [log_entry_shown(kept, match, names) for kept in match.recent_log[-limit:]]
    else:
        entries = [
            log_event_data(entry, match, names)
            for entry in selectors.match_last_events(match=match, limit=limit)
        ]
    return [
        {
            "seq": entry["seq"],
            "text": entry["text"],
            "undone": entry["undone"],
            "at": parse_datetime(entry["created_at"]),
        }
        for entry in reversed(entries)
    ]


def scoreboard_context(match: Match) -> dict[str, Any]:
    names = names_of(match)
    mark = selectors.match_result_mark(match)
    return {
        "mark": mark,
        "mark_label": wording.result_mark_label(mark, match.corrected_from),
        "match": match,
        "stage_label": stage_label(match),
        "match_title": match_title(match),
        "names": names,
        "s": score_view(match, names),
        "clock": clock_view(match),
        "winner": winning_slot(match),
        "events": described_events(match, names, SCOREBOARD_EVENTS),
        "to_spot": (match.state or {}).get("to_spot", 0),
    }
