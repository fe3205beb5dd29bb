"""What a scoreboard shows of a match, for every face that shows one (the public scoreboard and
overlay, a tournament's live matches, the referee's home, the table board, match control):
the score, the clock, the last events in words."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

import rules
from matches import selectors, wording
from matches.models import Match
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


def score_view(match: Match) -> dict[str, Any]:
    """Scores for a scoreboard: the current frame (head start included) and frames won;
    the final score once finished."""
    # Once there is a result, the state shown is that result (selectors.result_state): a
    # corrected score or a walkover, not what the table's log folds to.
    state = selectors.result_state(match)
    summary = selectors.match_score_summary(match, state)
    score = summary["score"] or {"a": match.score_a, "b": match.score_b}
    ruleset = state.get("ruleset") or match.ruleset or {}
    head = ruleset.get("head_start") or {}
    frames_to_win = ruleset.get("frames_to_win", 1)
    if frames_to_win and frames_to_win > 1 and summary["frames"] and winning_slot(match):
        # A match of frames that is over reads as the frames won, as the bracket shows it.
        score = summary["frames"]
    return {
        "score": score,
        "frames": summary["frames"] if frames_to_win and frames_to_win > 1 else None,
        "frames_to_win": frames_to_win,
        "balls_to_win": ruleset.get("balls_to_win"),
        "head": {"a": head.get("a", 0), "b": head.get("b", 0)},
        "duplex": state.get("discipline") == "duplex",
        "turn": state.get("turn"),
        "golden_ball": state.get("golden_ball", False),
        "on_table": state.get("balls_on_table"),
        "frame": state.get("frame"),
        "rack": state.get("rack"),
    }


def match_rules(match: Match) -> rules.RulesInForce:
    """The rules in force for this match, from its ruleset (the form and the log follow it)."""
    ruleset = (match.state or {}).get("ruleset") or match.ruleset or {}
    return rules.rules_in_force(ruleset)


def described_events(match: Match, names: dict[str, str], limit: int) -> list[dict[str, Any]]:
    """The newest `limit` log entries in words, newest first: from the match row's last
    events when they reach that far (a scoreboard), else from the log."""
    if limit <= selectors.LAST_EVENTS:
        entries = match.recent_log[-limit:]
    else:
        entries = [
            selectors.log_entry_data(entry)
            for entry in selectors.match_last_events(match=match, limit=limit)
        ]
    out = []
    in_force = match_rules(match)
    for entry in reversed(entries):
        if entry["kind"] == "undo":
            text = _("Undo of #%(seq)s") % {"seq": entry["undoes"]}
        else:
            text = wording.describe_event(entry["event"], names, in_force)
        at = parse_datetime(entry["created_at"])
        out.append({"seq": entry["seq"], "text": text, "undone": entry["undone"], "at": at})
    return out


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
        "s": score_view(match),
        "clock": clock_view(match),
        "winner": winning_slot(match),
        "events": described_events(match, names, SCOREBOARD_EVENTS),
        "to_spot": (match.state or {}).get("to_spot", 0),
    }
