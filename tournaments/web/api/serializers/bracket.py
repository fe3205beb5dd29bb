"""The draw and the bracket it makes: the draw's request and its preview's query, the bracket
answered (output only)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from config.serializers import BIGINT_MAX, LIST_ERRORS, QueryIntegerField, StrictSerializer
from matches.models import Match
from tournaments.models import Tournament
from tournaments.services.setup import MAX_PLAYERS
from tournaments.web.api.serializers.common import PlayerRefSerializer, id_field

DRAW_METHODS = [("seeded", "seeded"), ("random", "random"), ("manual", "manual")]


class DrawSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=DRAW_METHODS)
    random_seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=BIGINT_MAX,
        help_text="random: replay a draw.",
    )
    order = serializers.ListField(
        child=id_field(),
        required=False,
        max_length=MAX_PLAYERS,
        error_messages=LIST_ERRORS,
        help_text="manual: player ids, seed 1 first.",
    )
    allow_unpaid = serializers.BooleanField(
        required=False, default=False, help_text="Draw although some entry fees are unpaid."
    )


class DrawPreviewQuerySerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=DRAW_METHODS, default="seeded")
    random_seed = QueryIntegerField(required=False, min_value=0, max_value=BIGINT_MAX)
    order = serializers.CharField(
        required=False,
        max_length=MAX_PLAYERS * 21,
        help_text="manual: comma-separated player ids.",
    )

    def validate_order(self, value: str) -> list[int]:
        try:
            ids = [int(x) for x in value.split(",") if x.strip()]
        except ValueError:
            raise serializers.ValidationError(_("Give player ids separated by commas.")) from None
        if len(ids) > MAX_PLAYERS or any(not 1 <= i <= BIGINT_MAX for i in ids):
            raise serializers.ValidationError(_("Give player ids separated by commas."))
        return ids


def _match_statuses() -> Any:
    return Match.Status.choices


class SideSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class SourceSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["seed", "winner", "loser", "group"])
    ref = serializers.JSONField(help_text="Seed number, match key, or [group, rank].")
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py


class LinkSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    slot = serializers.CharField(help_text='"a" or "b"')


class HeadStartSerializer(StrictSerializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class BracketMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True)
    key = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    order = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    schedule_round = serializers.IntegerField()
    conditional = serializers.BooleanField()
    status = serializers.ChoiceField(choices=_match_statuses())
    status_label = serializers.CharField()
    player_a = SideSerializer(allow_null=True)
    player_b = SideSerializer(allow_null=True)
    source_a = SourceSerializer(allow_null=True)
    source_b = SourceSerializer(allow_null=True)
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    balls_to_win = serializers.IntegerField(allow_null=True)
    frames_to_win = serializers.IntegerField(allow_null=True)
    head_start = HeadStartSerializer(allow_null=True)
    head_start_overridden = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["a", "b"], allow_null=True)
    result = serializers.CharField(allow_blank=True)
    mark = serializers.ChoiceField(
        choices=["walkover", "forfeit", "time", "golden_ball", "corrected"],
        allow_null=True,
        help_text="How the match ended, when not by the race: walkover, forfeit, time, "
        "golden ball, or a corrected result.",
    )
    mark_label = serializers.CharField(
        allow_blank=True, help_text='The mark in words, e.g. "corrected: was 10:1".'
    )
    table = serializers.IntegerField(allow_null=True)
    winner_to = LinkSerializer(allow_null=True)
    loser_to = LinkSerializer(allow_null=True)
    rating_change = HeadStartSerializer(allow_null=True, help_text="Elo delta per slot.")


class BracketRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    title = serializers.CharField()
    matches = BracketMatchSerializer(many=True)


class BracketStageSerializer(serializers.Serializer[Any]):
    stage = serializers.CharField()
    group = serializers.IntegerField(allow_null=True)
    title = serializers.CharField()
    rounds = BracketRoundSerializer(many=True)


class BracketSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    version = serializers.IntegerField()
    preview = serializers.BooleanField()
    draw_method = serializers.CharField(allow_blank=True)
    random_seed = serializers.IntegerField(allow_null=True)
    unpaid = PlayerRefSerializer(many=True, required=False)
    stages = BracketStageSerializer(many=True)
