"""The match writes' request bodies: an event, an undo, the clock, a judge call, a walkover,
the table, the hold. Validated here; the event's keys are judged by the rules engine."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import INT_MAX, StrictSerializer, component
from matches.services import CLOCK_ACTIONS
from matches.web.api.serializers.tables import TABLES_MAX


@extend_schema_field(component("EngineEvent"))
class EventField(serializers.DictField):
    """One engine event: a union discriminated on `type` in the schema; the engine judges it."""


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


class MatchTableWriteSerializer(StrictSerializer):
    table = serializers.IntegerField(
        min_value=1, max_value=TABLES_MAX, help_text=_("The table's number.")
    )


class MatchHoldWriteSerializer(StrictSerializer):
    held = serializers.BooleanField()
