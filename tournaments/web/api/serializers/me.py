"""A player's own overview (/me/): his record, his next match and his entries."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.web.api.serializers.common import PlayerBriefSerializer
from tournaments.web.api.serializers.entry import EntryRowSerializer


class MyMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    status = serializers.CharField()
    called = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True)
    opponent = PlayerBriefSerializer(allow_null=True)
    head_start = serializers.DictField(help_text='{"mine": n, "opponent": n}')
    balls_to_win = serializers.IntegerField(allow_null=True)
    frames_to_win = serializers.IntegerField(allow_null=True)
    score_url = serializers.CharField(allow_null=True, help_text="With self-scoring.")


class MeSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer(allow_null=True)
    next_match = MyMatchSerializer(allow_null=True)
    entries = EntryRowSerializer(many=True)
