"""A tournament's registrations (the desk): the entries, a new one (an existing player or a new
one), payment and withdrawal, and the money totals. Fee fields are the organisers' only."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import StrictSerializer
from tournaments.models import Player, Registration
from tournaments.web.api.serializers.common import id_field, rating_field, read_only_enum


class RegistrationPlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "city", "club", "rating"]


class RegistrationSerializer(serializers.ModelSerializer[Registration]):
    """Fee fields are shown to the tournament's organisers only (null for everybody else)."""

    player = RegistrationPlayerSerializer()
    status = read_only_enum(Registration.Status.choices)
    fee_due = serializers.SerializerMethodField()
    paid = serializers.SerializerMethodField()
    paid_at = serializers.SerializerMethodField()
    fee_kept = serializers.SerializerMethodField()
    fee_refunded = serializers.SerializerMethodField()
    refunded_at = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "rating_at_entry",
            "seed",
            "status",
            "fee_due",
            "paid",
            "paid_at",
            "withdrawn_at",
            "created_at",
            "fee_kept",
            "fee_refunded",
            "refunded_at",
        ]

    def _private(self) -> bool:
        return bool(self.context.get("can_manage"))

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_due(self, reg: Registration) -> str | None:
        return format(reg.fee_due, "f") if self._private() else None

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_paid(self, reg: Registration) -> bool | None:
        return reg.paid if self._private() else None

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_paid_at(self, reg: Registration) -> str | None:
        # In the API's time zone, as every other date-time of the answer.
        if not (self._private() and reg.paid_at):
            return None
        return serializers.DateTimeField().to_representation(reg.paid_at)

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_kept(self, reg: Registration) -> str | None:
        """What the club keeps of this player's money (his paid fee, 0 after a refund)."""
        return format(reg.fee_paid, "f") if self._private() else None

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_refunded(self, reg: Registration) -> str | None:
        return format(reg.fee_refunded, "f") if self._private() else None

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_refunded_at(self, reg: Registration) -> str | None:
        if not (self._private() and reg.refunded_at):
            return None
        return serializers.DateTimeField().to_representation(reg.refunded_at)


class RegistrationPageSerializer(serializers.Serializer[Any]):
    """One page of a tournament's registrations (limit/offset pagination)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RegistrationSerializer(many=True)


class NewPlayerSerializer(StrictSerializer):
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Create although a player with this name (and city) exists: a namesake.",
    )
    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    rating = rating_field(required=False, allow_null=True)


class RegistrationCreateSerializer(StrictSerializer):
    """Either ``player_id`` (an existing player) or ``player`` (a new one)."""

    player_id = id_field(required=False)
    player = NewPlayerSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player_id" in attrs) == ("player" in attrs):
            raise serializers.ValidationError(
                _("Give either player_id (an existing player) or player (a new one).")
            )
        return attrs


class RegistrationUpdateSerializer(StrictSerializer):
    paid = serializers.BooleanField(required=False, help_text="Absent: nothing changes.")


class WithdrawSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class TotalsSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    paid_players = serializers.IntegerField()
    withdrawn = serializers.IntegerField()
    disqualified = serializers.IntegerField()
    fees_due = serializers.DecimalField(max_digits=12, decimal_places=2)
    fees_paid = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="The fees kept (fees_kept, its older name)."
    )
    fees_outstanding = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="pool_percent of fees_kept, plus added money."
    )
    refunds = serializers.IntegerField(help_text="Players given their fee back.")
    fees_collected = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Every payment taken."
    )
    fees_refunded = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Given back to players who left."
    )
    fees_kept = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="fees_collected - fees_refunded."
    )
