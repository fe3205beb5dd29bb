"""The API of an organiser's webhooks: his URLs, their deliveries' log, a delivery sent again."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.serializers import validated
from tournaments.models import Tournament, Webhook, WebhookDelivery
from tournaments.services import webhooks as service
from tournaments.web.api.serializers.webhooks import (
    WebhookCreatedSerializer,
    WebhookDeliverySerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
    WebhookWriteSerializer,
)
from tournaments.web.api.views import _errors
from tournaments.web.shared.permissions import OrganiserRolePermission, signed_in


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
