"""A tournament's tables: their count written, the table board (tables, queue, matches
playing elsewhere, judge calls), a table, the assignments made."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import StrictSerializer
from matches import selectors
from matches.models import Match
from matches.representation import clock_data, judge_data
from matches.web.api.serializers.match import (
    MatchClockSerializer,
    MatchJudgeCallSerializer,
    MatchPlayersSerializer,
)

TABLES_MAX = 200  # tables of one tournament: their count here, a table's number in writes


class TablesEnsureWriteSerializer(StrictSerializer):
    count = serializers.IntegerField(min_value=0, max_value=TABLES_MAX)


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
    label = serializers.CharField(source="table.label")  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
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
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    in_use = serializers.BooleanField(source="is_active")


class TableAssignmentsSerializer(serializers.Serializer[Any]):
    assigned = TableBoardMatchSerializer(many=True)
