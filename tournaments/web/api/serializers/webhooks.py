"""An organiser's webhooks: a URL and the events it is sent, its secret (once), a delivery."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import StrictSerializer
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services.webhooks import EVENTS

EVENT_HELP = (
    "match.started, match.event (a ball: an entry of a match's log), match.finished, "
    "match.corrected, tournament.draw, standings.changed; empty: all of them"
)


class WebhookEventField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Webhook.Event.choices, **kwargs)


class WebhookSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=WebhookEventField(), help_text=EVENT_HELP)
    tournament = serializers.IntegerField(
        source="tournament_id", allow_null=True, help_text="null: every tournament I organise"
    )
    is_active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="the key of the deliveries' signature: Luza-Signature is sha256=HMAC-SHA256 "
        "(secret, '<Luza-Timestamp>.<body>') in hex"
    )


class WebhookWriteSerializer(StrictSerializer):
    url = serializers.URLField(max_length=500)
    events = serializers.ListField(
        child=WebhookEventField(), max_length=len(EVENTS), required=False, default=list
    )
    tournament = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**31 - 1
    )


class WebhookUpdateSerializer(StrictSerializer):
    url = serializers.URLField(max_length=500, required=False)
    events = serializers.ListField(
        child=WebhookEventField(), max_length=len(EVENTS), required=False
    )
    is_active = serializers.BooleanField(required=False)


class WebhookDeliverySerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField(source="delivery_id")
    event = WebhookEventField()
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
    attempts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    response_status = serializers.IntegerField(allow_null=True)
    response_body = serializers.CharField(help_text="the start of the last answer")
    error = serializers.CharField(help_text="why the last attempt got no answer")
    payload = serializers.JSONField()
