"""The API of one's own API token (organisers and superusers): whether there is one, issue,
revoke."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.services.logins import api_token_info, api_token_issue, api_token_revoke
from tournaments.web.api.views import ERRORS
from tournaments.web.shared import permissions
from tournaments.web.shared.permissions import signed_in


class TokenStatusSerializer(serializers.Serializer[Any]):
    exists = serializers.BooleanField()
    created = serializers.DateTimeField(allow_null=True)
    hint = serializers.CharField(allow_null=True, help_text="the key's first 4 characters")


class TokenIssuedSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="shown once: send it as 'Authorization: Token <key>'")
    created = serializers.DateTimeField()
    hint = serializers.CharField()


def _status(user: Any) -> dict[str, Any]:
    info = api_token_info(user=user)
    if info is None:
        return {"exists": False, "created": None, "hint": None}
    return {"exists": True, "created": info.created, "hint": info.hint}


class ApiTokenView(APIView):
    """The caller's own API token (organisers and superusers)."""

    permission_classes = [permissions.OrganiserRolePermission]

    @extend_schema(
        responses={200: TokenStatusSerializer, 403: ERRORS[403]},
        summary="Whether I have an API token",
    )
    def get(self, request: Request) -> Response:
        return Response(TokenStatusSerializer(_status(request.user)).data)

    @extend_schema(
        request=None,
        responses={201: TokenIssuedSerializer, 403: ERRORS[403]},
        summary="Issue a new API token (the previous one stops working)",
    )
    def post(self, request: Request) -> Response:
        user = signed_in(request)
        key = api_token_issue(user=user, actor=user)
        info = api_token_info(user=user)
        assert info is not None
        body = {"token": key, "created": info.created, "hint": info.hint}
        response = Response(TokenIssuedSerializer(body).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="revoked (or there was none)"),
            403: ERRORS[403],
        },
        summary="Revoke my API token",
    )
    def delete(self, request: Request) -> Response:
        user = signed_in(request)
        api_token_revoke(user=user, actor=user)
        return Response(status=status.HTTP_204_NO_CONTENT)
