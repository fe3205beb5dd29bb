"""Online entry: its state and settings, the reserve list, check-in, and players' requests to
be added to the registry."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import MomentField, StrictSerializer
from tournaments.web.api.serializers.common import PlayerBriefSerializer


class EntryRowSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = PlayerBriefSerializer()
    status = serializers.CharField()
    online = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True, help_text="On the reserve list: 1 = next.")
    checked_in = serializers.BooleanField()
    promoted = serializers.BooleanField(help_text="Moved up from the reserve list.")


class EntryStateSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(choices=["off", "not_open", "open", "closed"])
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    max_players = serializers.IntegerField()
    entered = serializers.IntegerField()
    fee_due = serializers.DecimalField(
        max_digits=10, decimal_places=2, allow_null=True, help_text="Yours, from the fee bands."
    )
    mine = EntryRowSerializer(allow_null=True)
    reserves = EntryRowSerializer(many=True)


class EntrySettingsSerializer(StrictSerializer):
    online_entry = serializers.BooleanField(required=False)
    entry_opens_at = MomentField(required=False, allow_null=True)
    entry_closes_at = MomentField(required=False, allow_null=True)
    entry_min_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=4000
    )
    entry_max_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=4000
    )


class CheckInSerializer(StrictSerializer):
    present = serializers.BooleanField(required=False, default=True)


class RemoveAbsentSerializer(serializers.Serializer[Any]):
    removed = serializers.ListField(child=serializers.IntegerField())
    promoted = serializers.ListField(child=serializers.IntegerField())


class PlayerRequestWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PlayerRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    club = serializers.CharField()
    status = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    created_at = serializers.DateTimeField()


class PlayerRequestDecideSerializer(StrictSerializer):
    approve = serializers.BooleanField()
