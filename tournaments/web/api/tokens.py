"""The API of API tokens: a login's password exchanged for a token (organisers and referees),
whether there is one, a new one, revocation."""

from __future__ import annotations

from typing import Any

from axes.exceptions import AxesBackendPermissionDenied
from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.drf import token_expires
from config.errors import ApiError
from config.serializers import validated
from config.throttle import TokenExchangeThrottle
from tournaments.access import is_organiser_role, is_referee_role
from tournaments.services.logins import api_token_info, api_token_issue, api_token_revoke
from tournaments.web.api.serializers.tokens import (
    TokenIssuedSerializer,
    TokenRequestSerializer,
    TokenStatusSerializer,
)
from tournaments.web.api.views import ERRORS
from tournaments.web.shared.permissions import signed_in


def may_hold_token(user: Any) -> bool:
    """Organisers (and superusers) and referees: the logins that write through the API."""
    return bool(is_organiser_role(user) or is_referee_role(user))


class TokenPermission(BasePermission):
    """A password exchange is open to anyone (the credentials are checked); the rest needs a
    login that may hold a token."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method == "POST" and not request.user.is_authenticated:
            return True
        return may_hold_token(request.user)


def _status(user: Any) -> dict[str, Any]:
    info = api_token_info(user=user)
    if info is None:
        return {"exists": False, "created": None, "expires": None, "hint": None}
    return {
        "exists": True,
        "created": info.created,
        "expires": token_expires(info.created),
        "hint": info.hint,
    }


def _credentials_user(request: Request) -> Any:
    """The login whose username and password the body gives (django-axes counts failures and
    locks an address and name out: 429)."""
    data = validated(TokenRequestSerializer, request.data)
    try:
        user = authenticate(request._request, username=data["username"], password=data["password"])
    except AxesBackendPermissionDenied:
        user = None  # AxesMiddleware answers the lock-out (config.login_limit)
    if user is None:
        raise ApiError(
            "invalid_credentials",
            _("Wrong login name or password."),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if not may_hold_token(user):
        raise ApiError(
            "no_api_role",
            _("Only organisers and referees get API tokens."),
            status=status.HTTP_403_FORBIDDEN,
        )
    return user


class ApiTokenView(APIView):
    """The caller's own API token."""

    permission_classes = [TokenPermission]

    def get_throttles(self) -> list[Any]:
        return [*super().get_throttles(), TokenExchangeThrottle()]

    @extend_schema(
        responses={200: TokenStatusSerializer, 403: ERRORS[403]},
        summary="Whether I have an API token",
    )
    def get(self, request: Request) -> Response:
        return Response(TokenStatusSerializer(_status(signed_in(request))).data)

    @extend_schema(
        request=TokenRequestSerializer,
        responses={
            201: TokenIssuedSerializer,
            400: OpenApiResponse(description="invalid input, or `invalid_credentials`"),
            403: ERRORS[403],
            429: OpenApiResponse(description="too many tries: wait `params.wait` seconds"),
        },
        summary="Exchange a login's password for an API token (or rotate mine)",
        description="Anonymous, with `username` and `password` of an organiser or a referee: "
        "a new token (the previous one of that login stops working). Throttled per address "
        "and, for wrong passwords, per address and name (429). Authenticated, with an empty "
        "body: my token is replaced by a new one. The token expires (`expires`); "
        "`DELETE` revokes it.",
    )
    def post(self, request: Request) -> Response:
        if request.user.is_authenticated and not request.data:
            user = signed_in(request)
        else:
            user = _credentials_user(request)
        key = api_token_issue(user=user, actor=user)
        info = api_token_info(user=user)
        assert info is not None
        body = {
            "token": key,
            "created": info.created,
            "expires": token_expires(info.created),
            "hint": info.hint,
        }
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
