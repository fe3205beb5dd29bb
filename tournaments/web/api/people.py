"""REST API of people: a tournament's referees and the logins the organiser issues, players'
claim codes, the player's history and the superuser's merge. Views parse, check access
(tournaments.access) and call one service."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access, selectors_people, services
from tournaments.models import Player, Tournament
from tournaments.web.api.serializers.people import (
    ClaimCodeSerializer,
    ClaimIssueSerializer,
    ClaimRedeemSerializer,
    IssuedPasswordSerializer,
    MergeSerializer,
    RefereeAddSerializer,
    RefereeLoginCreateSerializer,
    RefereeSerializer,
)
from tournaments.web.api.serializers.players import PlayerSerializer
from tournaments.web.api.views import OrganiserRoleOrReadOnly, TournamentScopedView, _errors
from tournaments.web.shared.api import AUDIT_PAGE_PARAMETERS, audit_page
from tournaments.web.shared.permissions import signed_in
from tournaments.web.shared.serializers import AuditPageSerializer

NO_STORE = {"Cache-Control": "no-store"}


def _referee_out(tournament: Tournament) -> list[dict[str, Any]]:
    rows = selectors_people.tournament_referees(tournament=tournament)
    # many=True makes a ListSerializer, whose data is a list; the stubs type the child's.
    data: list[dict[str, Any]] = RefereeSerializer(rows, many=True).data  # type: ignore[assignment]
    return data


def _password_out(request: Request, user: Any, password: str) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "name": user.get_full_name(),
        "password": password,
        "login_url": request.build_absolute_uri(reverse("login")),
    }


@extend_schema(tags=["people"])
class RefereeListView(TournamentScopedView):
    @extend_schema(responses={200: RefereeSerializer(many=True), **_errors(403, 404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        access.require_manage(request.user, tournament)
        return Response(_referee_out(tournament))

    @extend_schema(
        request=RefereeAddSerializer,
        responses={200: RefereeSerializer(many=True), **_errors(400, 403, 404)},
        description="Make an existing login a referee of the tournament.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        data = RefereeAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.tournament_referee_add(
            tournament=tournament, username=data.validated_data["username"], actor=request.user
        )
        return Response(_referee_out(tournament))


@extend_schema(tags=["people"])
class RefereeLoginCreateView(TournamentScopedView):
    @extend_schema(
        request=RefereeLoginCreateSerializer,
        responses={201: IssuedPasswordSerializer, **_errors(400, 403, 404, 409)},
        description="A new login that referees this tournament, with a generated password "
        "returned this once.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        data = RefereeLoginCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user, password = services.referee_login_create(
            tournament=tournament,
            actor=request.user,
            username=data.validated_data["username"],
            full_name=data.validated_data["name"],
        )
        return Response(
            _password_out(request, user, password), status=status.HTTP_201_CREATED, headers=NO_STORE
        )


class _RefereeView(TournamentScopedView):
    def get_referee(self, tournament: Tournament) -> Any:
        return get_object_or_404(tournament.referees.all(), pk=self.kwargs["user_id"])


@extend_schema(tags=["people"])
class RefereeDetailView(_RefereeView):
    @extend_schema(responses={204: None, **_errors(403, 404)})
    def delete(self, request: Request, tournament_pk: int, user_id: int) -> Response:
        tournament = self.get_tournament()
        services.tournament_referee_remove(
            tournament=tournament, user_id=self.get_referee(tournament).pk, actor=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["people"])
class RefereePasswordView(_RefereeView):
    @extend_schema(
        request=None,
        responses={200: IssuedPasswordSerializer, **_errors(403, 404)},
        description="A new password for a referee login made in the panel, returned this "
        "once; the old one stops working.",
    )
    def post(self, request: Request, tournament_pk: int, user_id: int) -> Response:
        tournament = self.get_tournament()
        user = self.get_referee(tournament)
        password = services.referee_password_reset(
            tournament=tournament, user=user, actor=request.user
        )
        return Response(_password_out(request, user, password), headers=NO_STORE)


# --- players --------------------------------------------------------------------------------


class _PlayerView(APIView):
    permission_classes = [OrganiserRoleOrReadOnly]

    def get_player(self) -> Player:
        return get_object_or_404(Player, pk=self.kwargs["pk"])


def claim_url(request: Any, code: str) -> str:
    url: str = request.build_absolute_uri(f"{reverse('people-claim')}?code={code}")
    return url


@extend_schema(tags=["players"])
class PlayerClaimIssueView(_PlayerView):
    @extend_schema(
        request=ClaimIssueSerializer,
        responses={201: ClaimCodeSerializer, **_errors(400, 403, 404, 409)},
        description="A one-time claim code for the player's slip, issued only by whoever may "
        "change his identity (a superuser, or the organiser whose tournaments alone show him); "
        "older unused codes stop working, and their holders are told so.",
    )
    def post(self, request: Request, pk: int) -> Response:
        player = self.get_player()
        data = ClaimIssueSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = None
        if data.validated_data.get("tournament"):
            tournament = get_object_or_404(
                access.managed_tournaments(request.user), pk=data.validated_data["tournament"]
            )
        claim, code = services.player_claim_issue(
            player=player, actor=request.user, tournament=tournament
        )
        body = {
            "player": player.pk,
            "code": code,
            "claim_url": claim_url(request, code),
            "expires_at": claim.expires_at,
        }
        return Response(
            ClaimCodeSerializer(body).data, status=status.HTTP_201_CREATED, headers=NO_STORE
        )


@extend_schema(tags=["players"])
class PlayerClaimRedeemView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ClaimRedeemSerializer,
        responses={200: PlayerSerializer, **_errors(400, 403, 409)},
        description="Link the requesting login to the player of a claim code (once).",
    )
    def post(self, request: Request) -> Response:
        data = ClaimRedeemSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_claim_redeem(
            code=data.validated_data["code"], user=signed_in(request)
        )
        return Response(PlayerSerializer(player).data)


@extend_schema(tags=["players"])
class PlayerHistoryView(_PlayerView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=AUDIT_PAGE_PARAMETERS,
        responses={200: AuditPageSerializer, **_errors(403, 404)},
        description="Every recorded change to the player, newest first (organisers and the "
        "player himself).",
    )
    def get(self, request: Request, pk: int) -> Response:
        player = self.get_player()
        if not access.can_view_player_history(request.user, player):
            raise PermissionDenied
        entries = selectors_people.player_history(player=player, user=request.user)
        return audit_page(request, self, entries)


@extend_schema(tags=["players"])
class PlayerMergeView(_PlayerView):
    @extend_schema(
        request=MergeSerializer,
        responses={200: PlayerSerializer, **_errors(400, 403, 404, 409)},
        description="A superuser merges the duplicate `drop` into this player.",
    )
    def post(self, request: Request, pk: int) -> Response:
        keep = self.get_player()
        data = MergeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        drop = get_object_or_404(Player, pk=data.validated_data["drop"])
        kept = services.player_merge(keep=keep, drop=drop, actor=request.user)
        return Response(PlayerSerializer(kept).data)
