"""A tournament's standings: the places and the group tables (output only)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Tournament


class StandingPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField(allow_blank=True)
    club = serializers.CharField(allow_blank=True)
    seed = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class PlaceSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    shared = serializers.BooleanField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    players = StandingPlayerSerializer(many=True)
    pending = serializers.IntegerField(help_text="How many of these places are not decided yet.")


class GroupRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = StandingPlayerSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    balls_for = serializers.IntegerField()
    balls_against = serializers.IntegerField()
    ball_difference = serializers.IntegerField()


class GroupTableSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    title = serializers.CharField()
    complete = serializers.BooleanField()
    rows = GroupRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    complete = serializers.BooleanField()
    version = serializers.IntegerField()
    places = PlaceSerializer(many=True)
    pending = PlaceSerializer(many=True, help_text="Places nobody has yet (no players).")
    all_places = PlaceSerializer(many=True, help_text="places and pending, in order.")
    groups = GroupTableSerializer(many=True)
