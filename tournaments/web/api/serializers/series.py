"""Club cups (series of tournaments): their settings, stages and standings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import StrictSerializer
from tournaments.web.api.serializers.common import (
    PlayerBriefSerializer,
    TournamentBriefSerializer,
)


class SeriesWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    points_table = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        min_length=1,
        max_length=256,
        required=False,
    )
    participation_points = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    best_of = serializers.IntegerField(min_value=1, max_value=50, required=False, allow_null=True)
    is_public = serializers.BooleanField(required=False)
    tournaments = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=50,
        required=False,
        help_text="The stages' tournament ids, in stage order.",
    )


class SeriesSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    points_table = serializers.ListField(child=serializers.IntegerField())
    participation_points = serializers.IntegerField()
    best_of = serializers.IntegerField(allow_null=True)
    is_public = serializers.BooleanField()
    stages = serializers.SerializerMethodField()

    def get_stages(self, series: Any) -> list[dict[str, Any]]:
        stages = self.context.get("stages")
        if stages is None:
            return []
        return [
            {"number": s.number, "tournament": TournamentBriefSerializer(s.tournament).data}
            for s in stages
        ]


class StageScoreSerializer(serializers.Serializer[Any]):
    points = serializers.DecimalField(max_digits=10, decimal_places=2)
    place = serializers.CharField(source="label")
    counted = serializers.BooleanField()


class SeriesRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = PlayerBriefSerializer()
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    all_total = serializers.DecimalField(max_digits=12, decimal_places=2)
    stages = serializers.ListField(
        child=StageScoreSerializer(allow_null=True),
        help_text="Per finished stage, in order; null where he did not play.",
    )


class SeriesStandingsSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    stages = serializers.ListField(child=serializers.DictField())
    rows = SeriesRowSerializer(many=True)
