"""A tournament's matches as its organisers correct them: a no-show, the handicap, a corrected
result; the match's summary they are answered with, and its rating changes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import StrictSerializer
from matches.models import Match
from tournaments.web.api.serializers.rulesets import MatchRulesetField

HEAD_START_MAX = 199  # the rules engine's bound (rules.rulesets: head_start)
BALLS_TO_WIN_MAX = 200


class HeadStartWriteSerializer(StrictSerializer):
    a = serializers.IntegerField(min_value=0, max_value=HEAD_START_MAX)
    b = serializers.IntegerField(min_value=0, max_value=HEAD_START_MAX)


class HandicapSerializer(StrictSerializer):
    head_start = HeadStartWriteSerializer()
    balls_to_win = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=BALLS_TO_WIN_MAX
    )


class CorrectResultSerializer(StrictSerializer):
    winner = serializers.ChoiceField(choices=["a", "b"])
    score_a = serializers.IntegerField(min_value=0, max_value=999)
    score_b = serializers.IntegerField(min_value=0, max_value=999)
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, default="", help_text="Why."
    )


class NoShowSerializer(StrictSerializer):
    absent = serializers.ChoiceField(choices=["a", "b"], help_text="The slot of who did not come.")


class MatchSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    player_a = serializers.IntegerField(source="player_a_id", allow_null=True)
    player_b = serializers.IntegerField(source="player_b_id", allow_null=True)
    # The winner's slot, as the correction's request names it and every match answer gives it;
    # winner_id is the player.
    winner = serializers.SerializerMethodField(
        help_text="The winner's slot (a or b), as in the correction's request; null: none."
    )
    winner_id = serializers.IntegerField(
        allow_null=True, help_text="The winner's player id; null: none."
    )
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    result = serializers.CharField(allow_blank=True)
    ruleset = MatchRulesetField()
    head_start_overridden = serializers.BooleanField()
    clock_limit_seconds = serializers.IntegerField(allow_null=True)

    @extend_schema_field(serializers.ChoiceField(choices=["a", "b"], allow_null=True))
    def get_winner(self, match: Match) -> str | None:
        if match.winner_id is None:
            return None
        if match.winner_id == match.player_a_id:
            return "a"
        return "b" if match.winner_id == match.player_b_id else None


class RatingDeltaSerializer(serializers.Serializer[Any]):
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


class MatchRatingSerializer(serializers.Serializer[Any]):
    a = RatingDeltaSerializer(required=False)
    b = RatingDeltaSerializer(required=False)
