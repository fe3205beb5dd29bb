"""The rating list and what it links to: a player's profile and a head-to-head. None of them
shows a login id."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.selectors_players import SORTS
from tournaments.web.api.serializers.common import (
    PlayerBriefSerializer,
    TournamentBriefSerializer,
)


class RatingRowSerializer(PlayerBriefSerializer):
    place = serializers.IntegerField(help_text="Place in the whole list; equal ratings share.")
    change_30_days = serializers.IntegerField(source="change")


class RatingPageSerializer(serializers.Serializer[Any]):
    """One page of the rating list (limit/offset pagination)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingRowSerializer(many=True)


class RatingQuerySerializer(serializers.Serializer[Any]):
    search = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    city = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    club = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    sort = serializers.ChoiceField(choices=list(SORTS), required=False, default="rating")


class ChartPointSerializer(serializers.Serializer[Any]):
    rating = serializers.IntegerField()
    delta = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py


class ProfileTournamentSerializer(serializers.Serializer[Any]):
    tournament = TournamentBriefSerializer()
    status = serializers.CharField(source="registration.status")
    place = serializers.CharField(allow_null=True)
    prize = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)


class MatchLineSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="match.pk")
    tournament = serializers.IntegerField(source="match.tournament_id")
    finished_at = serializers.DateTimeField(source="match.finished_at", allow_null=True)
    opponent = PlayerBriefSerializer(allow_null=True)
    won = serializers.BooleanField(allow_null=True)
    score_for = serializers.IntegerField(allow_null=True)
    score_against = serializers.IntegerField(allow_null=True)
    mark = serializers.CharField(
        allow_null=True,
        help_text='How it ended: "walkover", "forfeit", "time", "golden_ball", "corrected"; '
        "null for a race won.",
    )


class SeriesBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ProfileSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer()
    place = serializers.IntegerField()
    chart = ChartPointSerializer(many=True, help_text="Rating after each tournament, oldest first.")
    tournaments = ProfileTournamentSerializer(many=True)
    matches = MatchLineSerializer(many=True, help_text="The latest 30 matches with a result.")
    series = SeriesBriefSerializer(many=True)


class HeadToHeadSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer()
    opponent = PlayerBriefSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    balls_for = serializers.IntegerField()
    balls_against = serializers.IntegerField()
    ball_difference = serializers.IntegerField()
    matches = MatchLineSerializer(many=True)
