"""What several resources of the tournaments API share: a player's and a tournament's short
shapes, and the fields of an id, a rating and a read-only enum with their bounds."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import BIGINT_MAX
from tournaments.services.players import MAX_RATING, MIN_RATING


def read_only_enum(choices: Any) -> serializers.ChoiceField:
    """A read-only closed set: an enum in the schema (named in ENUM_NAME_OVERRIDES, since
    three models have a "status")."""
    return serializers.ChoiceField(choices=choices, read_only=True)


def rating_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=MIN_RATING, max_value=MAX_RATING, **kwargs)


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=BIGINT_MAX, **kwargs)


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField()


class TournamentBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField()
