"""API shapes of matches: request bodies (validated here, judged by the engine) and answers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import (
    INT_MAX,
    ErrorSerializer,
    QueryIntegerField,
    StrictSerializer,
    component,
)
from matches import selectors
from matches.models import Match, MatchEvent
from matches.representation import (
    clock_data,
    head_start_data,
    judge_data,
    last_events_data,
    log_event_data,
    match_data,
)
from matches.services import CLOCK_ACTIONS

# SHADOWED: a declared field may bear the name of an attribute of Field or Serializer ("label",
# "source", "fields"). DRF's metaclass takes declared fields out of the class body, so the name
# shadows nothing at run time; the stubs see an assignment to the attribute, hence the
# `type: ignore[assignment]` on those lines. The name is the API's key and stays.


# --- the rules engine's contract (rules.contract; components added by config.schema) ---------


# Points or frames per player (a, b); null when there are none (a walkover, no players yet).
_PER_SLOT: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
    "nullable": True,
}


@extend_schema_field(component("EngineEvent"))
class EventField(serializers.DictField):
    """One engine event: a union discriminated on `type` in the schema; the engine judges it."""


@extend_schema_field(component("LogEntryEvent"))
class LogEntryEventField(serializers.JSONField):
    """An entry's event as the log gives it: an engine event, or {"seq": n} for an undo."""


@extend_schema_field(component("MatchState"))
class StateField(serializers.JSONField):
    pass


@extend_schema_field(component("MatchRuleset"))
class RulesetField(serializers.JSONField):
    pass


# --- requests -------------------------------------------------------------------------------


class MatchIdempotentWriteSerializer(StrictSerializer):
    idempotency_key = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=False,
        help_text=_("Any unique string; a request sent again with it is applied once."),
    )


class MatchEventWriteSerializer(MatchIdempotentWriteSerializer):
    event = EventField(
        help_text=_(
            'One engine event, e.g. {"type": "shot", "player": "a", "pocketed": 1}; '
            "its keys are checked by the rules engine (422 invalid_event)."
        )
    )
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=INT_MAX,
        help_text=_("The match version the client saw; 409 if it has changed."),
    )


class MatchUndoWriteSerializer(MatchIdempotentWriteSerializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=INT_MAX,
        required=False,
        help_text=_("If given, the undo is refused (409) when the match has changed since."),
    )


class MatchClockWriteSerializer(MatchIdempotentWriteSerializer):
    action = serializers.ChoiceField(choices=CLOCK_ACTIONS)
    remaining_seconds = serializers.IntegerField(
        min_value=0,
        # A day: beyond any match, and far below what the clock's arithmetic can hold.
        max_value=24 * 3600,
        required=False,
        allow_null=True,
        help_text=_("For `adjust` (organisers): the net time left; null removes the limit."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["action"] == "adjust" and "remaining_seconds" not in attrs:
            raise serializers.ValidationError(
                {"remaining_seconds": _("Required to adjust the clock.")}
            )
        return attrs


class MatchJudgeWriteSerializer(MatchIdempotentWriteSerializer):
    action = serializers.ChoiceField(choices=("call", "resolve"))
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class MatchWalkoverWriteSerializer(StrictSerializer):
    winner = serializers.ChoiceField(choices=("a", "b"), help_text=_("The slot that goes on."))
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


TABLES_MAX = 200  # tables of one tournament (TablesEnsureWriteSerializer)


class MatchTableWriteSerializer(StrictSerializer):
    table = serializers.IntegerField(
        min_value=1, max_value=TABLES_MAX, help_text=_("The table's number.")
    )


class MatchHoldWriteSerializer(StrictSerializer):
    held = serializers.BooleanField()


class TablesEnsureWriteSerializer(StrictSerializer):
    count = serializers.IntegerField(min_value=0, max_value=TABLES_MAX)


EVENTS_PAGE = 500  # entries of a match's log per read; a long match has a few hundred


class MatchLogQuerySerializer(serializers.Serializer[Any]):
    after = QueryIntegerField(
        min_value=0,
        max_value=INT_MAX,
        required=False,
        default=0,
        help_text=_("Only entries after this seq (for polling)."),
    )
    limit = QueryIntegerField(
        min_value=1,
        max_value=EVENTS_PAGE,
        required=False,
        default=EVENTS_PAGE,
        help_text=_("At most this many entries; the answer's next_after continues."),
    )


# --- answers --------------------------------------------------------------------------------


class MatchPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    club = serializers.CharField()
    city = serializers.CharField()


class MatchPlayersSerializer(serializers.Serializer[Any]):
    a = MatchPlayerSerializer(allow_null=True, source="player_a")
    b = MatchPlayerSerializer(allow_null=True, source="player_b")


class MatchHeadStartSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class MatchTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED


class MatchClockSerializer(serializers.Serializer[Any]):
    limit_seconds = serializers.IntegerField(allow_null=True)
    elapsed_seconds = serializers.IntegerField(help_text=_("Net time played."))
    remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text=_("Net time left (rounded up); null without a limit.")
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text=_("When the time is up if the clock keeps running.")
    )
    running = serializers.BooleanField()
    paused = serializers.BooleanField(help_text=_("A technical break."))
    expired = serializers.BooleanField()
    expired_at = serializers.DateTimeField(allow_null=True)
    warning = serializers.BooleanField(help_text=_("10 minutes or less are left."))
    ends_match = serializers.BooleanField(
        help_text=_("The discipline has a time-limit rule (false: its clock only shows the time).")
    )
    server_time = serializers.DateTimeField()


class MatchJudgeCallSerializer(serializers.Serializer[Any]):
    called = serializers.BooleanField()
    called_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField()


class MatchResultBeforeSerializer(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(choices=("a", "b"), allow_null=True)
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    result = serializers.CharField()
    status = serializers.CharField()


class MatchCorrectionSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    previous = MatchResultBeforeSerializer(help_text=_("The result this correction replaced."))


class MatchEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text=_("Position in the log; the version after it."))
    kind = serializers.ChoiceField(choices=MatchEvent.Kind.choices)
    event = LogEntryEventField(
        source="payload",
        help_text=_('The engine event; for an undo, {"seq": n} of the entry it cancels.'),
    )
    undone = serializers.BooleanField()
    undoes = serializers.IntegerField(
        allow_null=True, help_text=_("For an undo, the seq of the entry it cancels.")
    )
    source = serializers.CharField(help_text=_("organiser, referee, player or clock"))  # type: ignore[assignment]  # the key "source": see SHADOWED
    created_at = serializers.DateTimeField()
    text = serializers.CharField(
        help_text=_("The entry in one sentence, in the request's language (its discipline's).")
    )

    def to_representation(self, instance: MatchEvent) -> dict[str, Any]:
        # One function for the log and the write answers (matches.representation); the log's
        # view gives the match and the players' names.
        return log_event_data(instance, self.context["match"], self.context["names"])


class MatchEventLogSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = MatchEventSerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text=_("More entries follow: ask again with after=next_after. Null: the log's end."),
    )


# --- the discipline's description (rules.describe), its texts translated -----------------------
# Declared for the schema only: match_data builds them (matches.texts).


def _slot(**kw: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=["a", "b"], **kw)


class PerSlotSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class PerSlotMaybeSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(allow_null=True)
    b = serializers.IntegerField(allow_null=True)


class ViewFactSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text='Stable: "plus", "minus", "balls", "debt", ...')
    value = serializers.JSONField(allow_null=True)
    text = serializers.CharField()


class ViewPlayerSerializer(serializers.Serializer[Any]):
    score = serializers.IntegerField(allow_null=True, help_text="The headline number.")
    facts = ViewFactSerializer(many=True)
    colour = serializers.CharField(allow_null=True, help_text="His balls' colour, if any.")
    turn = serializers.BooleanField()
    winner = serializers.BooleanField()


class ViewPlayersSerializer(serializers.Serializer[Any]):
    a = ViewPlayerSerializer()
    b = ViewPlayerSerializer()


class ViewFeaturesSerializer(serializers.Serializer[Any]):
    time_limit = serializers.BooleanField()
    head_start = serializers.BooleanField()
    colours = serializers.BooleanField()


class ViewTableSerializer(serializers.Serializer[Any]):
    balls = serializers.IntegerField(allow_null=True)
    colours = PerSlotSerializer(allow_null=True)
    text = serializers.CharField(allow_null=True)


class ViewFrameSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(allow_null=True)
    of = serializers.IntegerField(allow_null=True)
    rack = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_null=True)


class ViewFrameRowSerializer(serializers.Serializer[Any]):
    frame = serializers.IntegerField()
    points = PerSlotSerializer()


class ViewFrameSummarySerializer(serializers.Serializer[Any]):
    frame = serializers.IntegerField()
    points = PerSlotSerializer()
    lines = serializers.ListField(child=serializers.CharField())
    rules = serializers.ListField(child=serializers.CharField())


class MatchViewSerializer(serializers.Serializer[Any]):
    """The discipline's view of the state (the same shape for every discipline)."""

    discipline = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED
    renderer = serializers.CharField(help_text="The referee form's renderer for it.")
    features = ViewFeaturesSerializer()
    finished = serializers.BooleanField()
    winner = _slot(allow_null=True)
    turn = _slot(allow_null=True)
    awaiting = serializers.CharField(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    end_label = serializers.CharField(
        allow_null=True, help_text="How the match ended, in words (its discipline's)."
    )
    to_spot = serializers.IntegerField()
    spotting = serializers.CharField(allow_null=True, help_text="Where the balls to spot go.")
    penalty = serializers.CharField(
        allow_null=True,
        help_text="What the last event's penalty did to the balls, with its clause.",
    )
    score = PerSlotMaybeSerializer()
    score_kind = serializers.CharField(
        help_text='"points", "frames", "plus", "provisional_final", "final".'
    )
    score_label = serializers.CharField(allow_null=True)
    players = ViewPlayersSerializer()
    table = ViewTableSerializer()
    frame = ViewFrameSerializer()
    frames = PerSlotSerializer(allow_null=True, help_text="Frames won, if several.")
    frame_points = ViewFrameRowSerializer(many=True)
    frame_summary = ViewFrameSummarySerializer(allow_null=True)
    provisional = PerSlotSerializer(allow_null=True, help_text="Duplex frame 3 so far.")
    lines = serializers.ListField(child=serializers.CharField())
    notices = serializers.ListField(child=serializers.CharField())


class EntryChoiceSerializer(serializers.Serializer[Any]):
    value = serializers.CharField()
    label = serializers.CharField(allow_null=True, help_text="Null: the player's name.")  # type: ignore[assignment]  # the key "label": see SHADOWED
    player = _slot(allow_null=True)
    hint = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    rule_label = serializers.CharField(allow_null=True)
    disabled = serializers.BooleanField()
    confirm = serializers.CharField(
        allow_null=True, help_text="Ask this before sending: the choice ends the match."
    )


class EntryFieldSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text='The event\'s key; "pocketed.a": key a of pocketed.')
    kind = serializers.ChoiceField(choices=["count", "choice"])
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)
    default = serializers.JSONField(allow_null=True)
    choices = EntryChoiceSerializer(many=True)
    prompt = serializers.CharField(allow_null=True)


class EntryLimitSerializer(serializers.Serializer[Any]):
    fields = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]  # the key "fields": see SHADOWED
    max = serializers.IntegerField(help_text="The sum of these fields is at most this.")


class FinishingResultSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(allow_null=True)
    b = serializers.IntegerField(allow_null=True)
    winner = _slot(allow_null=True)


class EntryKindSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    type = serializers.CharField(help_text="The event's type.")
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED
    prompt = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    player = _slot(allow_null=True, help_text="Who acts; null: a player field says.")
    fixed = serializers.DictField(help_text="The event's keys the kind sets itself.")
    fields = EntryFieldSerializer(many=True)  # type: ignore[assignment]  # the key "fields": see SHADOWED
    limits = EntryLimitSerializer(many=True)
    finishing = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="The field values (name: count) that end the match: the form asks to confirm.",
    )
    results = FinishingResultSerializer(
        many=True, help_text="For each of `finishing`, the result it leaves (the form says it)."
    )


class MatchEntrySerializer(serializers.Serializer[Any]):
    """What the referee may enter now: who acts, the question, and the kinds of event."""

    awaiting = serializers.CharField(allow_null=True)
    player = _slot(allow_null=True)
    prompt = serializers.CharField(allow_null=True)
    kinds = EntryKindSerializer(many=True)


class MatchDetailSerializer(serializers.Serializer[Any]):
    """A match as a scoring device or a scoreboard needs it."""

    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    key = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    order = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.choices)
    status_display = serializers.CharField(source="get_status_display")
    held = serializers.BooleanField()
    self_scoring = serializers.BooleanField(source="tournament.self_scoring")
    break_by_lag = serializers.BooleanField(
        source="tournament.break_by_lag",
        help_text="The form records the lag before the first break (a lag event); false: "
        "the tournament draws the break.",
    )
    players = MatchPlayersSerializer(source="*")
    head_start = serializers.SerializerMethodField()
    ruleset = RulesetField()
    table = MatchTableSerializer(allow_null=True)
    called_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text=_("Log entries so far; send it back to write."))
    state = StateField(
        help_text=_(
            "The rules engine's state after the log; once the match has a result, with that "
            "result (winner, score) laid over it, as after a walkover or a correction."
        )
    )
    view = serializers.SerializerMethodField()
    entry = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    judge = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    result = serializers.CharField()
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    correction = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    last_events = serializers.SerializerMethodField()

    @extend_schema_field(MatchHeadStartSerializer)
    def get_head_start(self, match: Match) -> dict[str, int]:
        return head_start_data(match)

    @extend_schema_field(
        {
            "type": "object",
            "properties": {"score": _PER_SLOT, "frames": _PER_SLOT},
            "required": ["score", "frames"],
            "additionalProperties": False,
        }
    )
    def get_score(self, match: Match) -> dict[str, Any]:
        return selectors.match_score_summary(match)

    @extend_schema_field(MatchViewSerializer)
    def get_view(self, match: Match) -> dict[str, Any]:
        view: dict[str, Any] = match_data(match)["view"]
        return view

    @extend_schema_field(
        MatchEntrySerializer(
            allow_null=True,
            help_text="What the referee may enter now: in every write's answer, and in a read "
            "with ?referee=1 by someone who may score the match; null otherwise.",
        )
    )
    def get_entry(self, match: Match) -> dict[str, Any] | None:
        entry: dict[str, Any] | None = match_data(match, entry=bool(self.context.get("entry")))[
            "entry"
        ]
        return entry

    @extend_schema_field(MatchClockSerializer)
    def get_clock(self, match: Match) -> dict[str, Any]:
        return clock_data(match)

    @extend_schema_field(MatchJudgeCallSerializer)
    def get_judge(self, match: Match) -> dict[str, Any]:
        return judge_data(match)

    @extend_schema_field(MatchCorrectionSerializer(allow_null=True))
    def get_correction(self, match: Match) -> dict[str, Any] | None:
        return selectors.correction_data(match)

    @extend_schema_field(
        serializers.ChoiceField(choices=["a", "b"], allow_null=True, help_text="winner's slot")
    )
    def get_winner(self, match: Match) -> str | None:
        return selectors.winning_slot(match)

    @extend_schema_field(MatchEventSerializer(many=True))
    def get_last_events(self, match: Match) -> list[dict[str, Any]]:
        names = {"a": "—", "b": "—", **selectors.match_player_names(match=match)}
        return last_events_data(match, names)

    def to_representation(self, instance: Match) -> dict[str, Any]:
        # Every scored ball is answered with this: built directly, the fields above declare
        # it for the schema (tests hold the two equal).
        return match_data(instance, entry=bool(self.context.get("entry")))


MatchErrorSerializer = ErrorSerializer


class MatchConflictSerializer(ErrorSerializer):
    match = MatchDetailSerializer(help_text=_("The match as it is now, to refresh from."))


# --- table board ----------------------------------------------------------------------------


class TableBoardMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    key = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    order = serializers.IntegerField()
    schedule_round = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    held = serializers.BooleanField()
    players = MatchPlayersSerializer(source="*")
    table = serializers.SerializerMethodField(help_text=_("The table's number."))
    called_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    score = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    judge = serializers.SerializerMethodField()

    @extend_schema_field({"type": "object"})
    def get_score(self, match: Match) -> dict[str, Any]:
        return selectors.match_score_summary(match)

    @extend_schema_field(MatchClockSerializer)
    def get_clock(self, match: Match) -> dict[str, Any]:
        return clock_data(match)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_table(self, match: Match) -> int | None:
        return match.table.number if match.table is not None else None

    @extend_schema_field(MatchJudgeCallSerializer)
    def get_judge(self, match: Match) -> dict[str, Any]:
        return judge_data(match)


class TableBoardTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="table.id")
    number = serializers.IntegerField(source="table.number")
    label = serializers.CharField(source="table.label")  # type: ignore[assignment]  # the key "label": see SHADOWED
    in_use = serializers.BooleanField(source="table.is_active")
    match = TableBoardMatchSerializer(allow_null=True)


class TableBoardSerializer(serializers.Serializer[Any]):
    tables = TableBoardTableSerializer(many=True)
    queue = TableBoardMatchSerializer(many=True, help_text=_("Ready matches, in calling order."))
    playing_elsewhere = TableBoardMatchSerializer(many=True)
    judge_calls = TableBoardMatchSerializer(many=True)
    server_time = serializers.DateTimeField(source="now")


class TournamentTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED
    in_use = serializers.BooleanField(source="is_active")


class TableAssignmentsSerializer(serializers.Serializer[Any]):
    assigned = TableBoardMatchSerializer(many=True)
