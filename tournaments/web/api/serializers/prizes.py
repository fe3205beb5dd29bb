"""A tournament's prize money: the pool and its awards per place (output only)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Tournament


class PrizePlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    amount = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="What he is paid (0 when withheld)."
    )
    due = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="His share of the place's money."
    )
    paid = serializers.BooleanField(help_text="False: withdrawn or disqualified, withheld.")
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class AwardSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    share_percent = serializers.DecimalField(max_digits=6, decimal_places=2)
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    amount_each = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_total = serializers.DecimalField(max_digits=12, decimal_places=2)
    pending = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Reserved for players not decided yet."
    )
    pending_places = serializers.IntegerField(help_text="Places of the range not decided yet.")
    withheld = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Not paid (withdrawn/disqualified, untaken)."
    )
    players = PrizePlayerSerializer(many=True)


class PrizesSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    complete = serializers.BooleanField()
    paid_fees = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool_percent = serializers.DecimalField(max_digits=5, decimal_places=2)
    added_money = serializers.DecimalField(max_digits=12, decimal_places=2)
    unit = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    withdrawn_prize = serializers.ChoiceField(choices=Tournament.WithdrawnPrize.choices)
    awarded = serializers.DecimalField(max_digits=12, decimal_places=2)
    pending = serializers.DecimalField(max_digits=12, decimal_places=2)
    withheld = serializers.DecimalField(max_digits=12, decimal_places=2)
    awards = AwardSerializer(many=True)
