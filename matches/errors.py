"""Errors of match writes, said in the user's language.

The engine reports an impossible event with a stable code and params (English text for
developers); here each code becomes a sentence for the table, translated with gettext. Writes
refused by this app (stale version, clock out of order, busy table...) are `MatchError`s.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from config.errors import UNPROCESSABLE, ApiError
from rules import RuleError

# What an event is, as the object of "cannot enter ... now".
EVENT_NAMES: dict[str, Promise] = {
    "break": _("a break"),
    "shot": _("a shot"),
    "foul": _("a foul"),
    "choice": _("a choice after a foul"),
    "rerack": _("a continuation choice"),
    "penalty_removal": _("a penalty ball removal"),
    "choose_breaker": _("the choice of the breaker"),
    "lag": _("the lag (only before the first break)"),
    "time_expired": _("the end of time"),
    "forfeit": _("a forfeit"),
}

# What the engine waits for (`awaiting`).
AWAITING_NAMES: dict[str | None, Promise] = {
    "break": _("a break"),
    "shot": _("a shot"),
    "choice": _("the choice after a foul or a fool"),
    "rerack": _("the continuation choice (full pyramid, partial pyramid or play on)"),
    "penalty_removal": _("the removal of a penalty ball"),
    "choose_breaker": _("the leader's choice of who breaks the third frame"),
    None: _("nothing: the match is over"),
}

_INVALID_EVENT: dict[str, Promise] = {
    "not_object": _("The event must be a JSON object."),
    "missing": _("The event lacks the field “%(field)s”."),
    "unknown_key": _("The event has an unknown field “%(field)s”."),
    "unknown_type": _("Unknown event type."),
    "wrong_type": _("The field “%(field)s” has the wrong type."),
    "negative": _("The field “%(field)s” must not be negative."),
    "bad_value": _("The field “%(field)s” must be one of: %(allowed)s."),
    "not_available": _("This option is not available now; possible: %(allowed)s."),
}


class MatchError(ApiError):
    """A refused match write (409 unless said otherwise); its message is a lazy template,
    filled with ``params`` and ``display`` in the requesting user's language."""


def _player(slot: object, names: dict[str, str] | None) -> str:
    if isinstance(slot, str) and names and names.get(slot):
        return names[slot]
    return str(slot).upper() if slot else "?"


def rule_error_message(err: RuleError, *, names: dict[str, str] | None = None) -> str:
    """The engine error as a sentence in the active language; `names` maps "a"/"b" to names."""
    p = err.params
    if err.code == "finished":
        return str(_("The match is over (won by %(winner)s); no more events can be entered.")) % {
            "winner": _player(p.get("winner"), names)
        }
    if err.code == "unexpected_event":
        kind = p.get("type")
        return str(_("Cannot enter %(event)s now: the match is waiting for %(awaiting)s.")) % {
            "event": EVENT_NAMES.get(kind, kind) if isinstance(kind, str) else kind,
            "awaiting": AWAITING_NAMES.get(p.get("awaiting"), p.get("awaiting")),
        }
    if err.code == "out_of_turn":
        return str(_("%(player)s cannot act now: it is %(turn)s's turn.")) % {
            "player": _player(p.get("player"), names),
            "turn": _player(p.get("turn"), names),
        }
    if err.code == "too_many_balls":
        values = {"pocketed": p.get("pocketed"), "on_table": p.get("on_table")}
        if p.get("colour"):
            values["colour"] = _player(p["colour"], names)
            return (
                str(
                    _(
                        "%(pocketed)s balls of %(colour)s's colour entered, but only "
                        "%(on_table)s of that colour are on the table."
                    )
                )
                % values
            )
        return (
            str(_("%(pocketed)s balls entered, but only %(on_table)s are on the table.")) % values
        )
    if err.code == "invalid_event":
        template = _INVALID_EVENT.get(p.get("reason", ""), _("The event is malformed."))
        return str(template) % {
            "field": p.get("field", ""),
            "allowed": ", ".join(str(a) for a in p.get("allowed", [])),
        }
    if err.code == "invalid_ruleset":
        return str(_("The match's ruleset is invalid (%(key)s); the organiser must fix it.")) % {
            "key": p.get("key", "")
        }
    if err.code == "invalid_state":
        return str(_("The match's stored state is damaged; the organiser must check it."))
    return str(_("This event is not possible."))


class RuleRefusal(MatchError):
    """The engine's refusal of an event (422), its sentence already said for these players."""

    preformatted = True


def rule_refusal(err: RuleError, *, names: dict[str, str] | None = None) -> RuleRefusal:
    return RuleRefusal(
        err.code,
        rule_error_message(err, names=names),
        status=UNPROCESSABLE,
        params=dict(err.params),
    )


# --- Refusals of this app -----------------------------------------------------------------

FORBIDDEN = 403


def match_not_found() -> MatchError:
    """An unknown match, and one of a tournament the actor may not see, alike (404)."""
    return MatchError("match_not_found", _("The match does not exist."), status=404)


def forbidden(message: Promise | str) -> MatchError:
    """A refusal for who the actor is (403), with the code of the API's own refusals."""
    return MatchError("permission_denied", message, status=FORBIDDEN)


def stale_version(*, current: int, expected: int) -> MatchError:
    return MatchError(
        "stale_version",
        _(
            "The match has changed since you loaded it (on another device?); reload it, check "
            "the score and enter the event again."
        ),
        params={"current": current, "expected": expected},
    )


def match_not_ready() -> MatchError:
    return MatchError("match_not_ready", _("The match is still waiting for its players."))


def match_closed(status: str, label: object) -> MatchError:
    return MatchError(
        "match_closed",
        _("The match is closed (%(status)s); nothing more can be entered."),
        params={"status": status},
        display={"status": label},
    )


def match_finished() -> MatchError:
    return MatchError(
        "match_finished",
        _("The match is finished; only the organiser can correct its result."),
    )


def nothing_to_undo() -> MatchError:
    return MatchError(
        "nothing_to_undo",
        _("There is nothing to undo: no event has been entered in this match."),
        status=422,
    )


def clock_already_started() -> MatchError:
    return MatchError("clock_already_started", _("The clock has already been started."))


def clock_not_started() -> MatchError:
    return MatchError("clock_not_started", _("The clock has not been started yet; start it first."))


def clock_not_running() -> MatchError:
    return MatchError("clock_not_running", _("The clock is not running, so it cannot be paused."))


def clock_not_paused() -> MatchError:
    return MatchError("clock_not_paused", _("The clock is not paused, so it cannot be resumed."))


def clock_expired() -> MatchError:
    return MatchError(
        "clock_expired",
        _("The time is up; the clock can no longer be paused, resumed or changed."),
    )


def idempotency_key_reused() -> MatchError:
    return MatchError(
        "idempotency_key_reused",
        _("This idempotency key was already used for another kind of request."),
        status=422,
    )


def table_busy(number: int) -> MatchError:
    return MatchError("table_busy", _("Table %(number)s is busy."), params={"number": number})


def table_not_found(number: int) -> MatchError:
    return MatchError(
        "table_not_found",
        _("There is no table %(number)s in use in this tournament."),
        status=422,
        params={"number": number},
    )


def table_already_free(number: int) -> MatchError:
    return MatchError(
        "table_free", _("Table %(number)s is already free."), params={"number": number}
    )


def match_not_callable(status: str, label: object) -> MatchError:
    return MatchError(
        "match_not_callable",
        _("Only a match that is ready or being played can be sent to a table (it is %(status)s)."),
        params={"status": status},
        display={"status": label},
    )


def match_not_on_table() -> MatchError:
    return MatchError("match_not_on_table", _("The match is not on a table."))


def match_in_progress(number: int) -> MatchError:
    return MatchError(
        "match_in_progress",
        _(
            "The match on table %(number)s has started; move it to another table or finish it "
            "instead."
        ),
        params={"number": number},
    )


def judge_not_called() -> MatchError:
    return MatchError("judge_not_called", _("Nobody has called the judge to this match."))


def judge_called() -> MatchError:
    return MatchError(
        "judge_called",
        _(
            "The judge has been called to this match; until the call is resolved only a "
            "referee or an organiser can act on it."
        ),
        status=403,
    )


def concede_only_yourself() -> MatchError:
    return MatchError(
        "concede_only_yourself",
        _("A player can concede the match only for themselves."),
        status=403,
    )


def slot_empty(slot: str) -> MatchError:
    return MatchError(
        "slot_empty",
        _("Player %(slot)s of this match is not known yet."),
        status=422,
        params={"slot": slot},
    )
