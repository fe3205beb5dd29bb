"""A match as a scoring device or a scoreboard needs it (the answer of every read and write),
its parts, and the conflict answer that carries it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import ErrorSerializer, component
from matches import selectors
from matches.models import Match
from matches.representation import (
    clock_data,
    head_start_data,
    judge_data,
    last_events_data,
    match_data,
)
from matches.web.api.serializers.discipline import MatchEntrySerializer, MatchViewSerializer
from matches.web.api.serializers.log import MatchEventSerializer

# Points or frames per player (a, b); null when there are none (a walkover, no players yet).
_PER_SLOT: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
    "nullable": True,
}


@extend_schema_field(component("MatchState"))
class StateField(serializers.JSONField):
    pass


@extend_schema_field(component("MatchRuleset"))
class RulesetField(serializers.JSONField):
    pass


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
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py


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


class MatchConflictSerializer(ErrorSerializer):
    match = MatchDetailSerializer(help_text=_("The match as it is now, to refresh from."))
