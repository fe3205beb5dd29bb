"""The API of an organiser's webhooks: his URLs, their deliveries' log, a delivery sent again."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.serializers import StrictSerializer, validated
from tournaments.models import Tournament, Webhook, WebhookDelivery
from tournaments.services import webhooks as service
from tournaments.web.api.views import _errors
from tournaments.web.shared.permissions import OrganiserRolePermission, signed_in

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
        child=WebhookEventField(), max_length=len(service.EVENTS), required=False, default=list
    )
    tournament = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**31 - 1
    )


class WebhookUpdateSerializer(StrictSerializer):
    url = serializers.URLField(max_length=500, required=False)
    events = serializers.ListField(
        child=WebhookEventField(), max_length=len(service.EVENTS), required=False
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


def _own_hook(request: Request, pk: int) -> Webhook:
    return get_object_or_404(Webhook, pk=pk, owner=signed_in(request))


class WebhookListView(APIView):
    """My webhooks (organisers)."""

    permission_classes = [OrganiserRolePermission]

    @extend_schema(
        responses={200: WebhookSerializer(many=True), **_errors(403)}, summary="My webhooks"
    )
    def get(self, request: Request) -> Response:
        hooks = service.webhooks_of(owner=signed_in(request))
        return Response(WebhookSerializer(hooks, many=True).data)

    @extend_schema(
        request=WebhookWriteSerializer,
        responses={201: WebhookCreatedSerializer, **_errors(400, 403, 404)},
        summary="Register a URL for my tournaments' events",
        description="Loopback and private addresses are refused (400 webhook_url). The answer "
        "shows the secret that signs the deliveries.",
    )
    def post(self, request: Request) -> Response:
        data = validated(WebhookWriteSerializer, request.data)
        user = signed_in(request)
        tournament = None
        if data.get("tournament") is not None:
            tournament = get_object_or_404(Tournament, pk=data["tournament"], organisers=user)
        hook = service.webhook_create(
            owner=user, url=data["url"], events=data["events"], tournament=tournament, actor=user
        )
        body = WebhookCreatedSerializer(hook).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"})


class WebhookDetailView(APIView):
    permission_classes = [OrganiserRolePermission]

    @extend_schema(responses={200: WebhookSerializer, **_errors(403, 404)}, summary="A webhook")
    def get(self, request: Request, pk: int) -> Response:
        return Response(WebhookSerializer(_own_hook(request, pk)).data)

    @extend_schema(
        request=WebhookUpdateSerializer,
        responses={200: WebhookSerializer, **_errors(400, 403, 404)},
        summary="Change a webhook (URL, events, active)",
    )
    def patch(self, request: Request, pk: int) -> Response:
        hook = _own_hook(request, pk)
        data = validated(WebhookUpdateSerializer, request.data)
        hook = service.webhook_update(hook=hook, actor=signed_in(request), **data)
        return Response(WebhookSerializer(hook).data)

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="deleted"), **_errors(403, 404)},
        summary="Delete a webhook",
    )
    def delete(self, request: Request, pk: int) -> Response:
        service.webhook_delete(hook=_own_hook(request, pk), actor=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveryListView(APIView):
    permission_classes = [OrganiserRolePermission]

    @extend_schema(
        responses={200: WebhookDeliverySerializer(many=True), **_errors(403, 404)},
        summary="A webhook's deliveries, newest first (the last 100), with their answers",
    )
    def get(self, request: Request, pk: int) -> Response:
        deliveries = service.webhook_deliveries(hook=_own_hook(request, pk))
        return Response(WebhookDeliverySerializer(deliveries, many=True).data)


class WebhookReplayView(APIView):
    permission_classes = [OrganiserRolePermission]

    @extend_schema(
        request=None,
        responses={200: WebhookDeliverySerializer, **_errors(403, 404)},
        summary="Send a delivery again (same delivery id)",
    )
    def post(self, request: Request, pk: int, delivery_id: str) -> Response:
        hook = _own_hook(request, pk)
        delivery = get_object_or_404(WebhookDelivery, hook=hook, delivery_id=delivery_id)
        delivery = service.webhook_delivery_replay(delivery=delivery, actor=signed_in(request))
        return Response(WebhookDeliverySerializer(delivery).data)
