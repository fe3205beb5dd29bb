"""REST API of the players' side: the rating list, a player's profile and head-to-head,
online entry and the reserve list, check-in, requests to be added, club cups and "my match".
Views parse, check access (tournaments.access) and call one service or selector."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access, selectors_players, services
from tournaments.errors import FORBIDDEN, TournamentError
from tournaments.models import Player, PlayerRequest, Registration, Series, Tournament
from tournaments.services import entries, entry_rules
from tournaments.services import series as series_services
from tournaments.services.setup import fee_for
from tournaments.web.api.serializers.entry import (
    CheckInSerializer,
    EntryRowSerializer,
    EntrySettingsSerializer,
    EntryStateSerializer,
    PlayerRequestDecideSerializer,
    PlayerRequestSerializer,
    PlayerRequestWriteSerializer,
    RemoveAbsentSerializer,
)
from tournaments.web.api.serializers.me import MeSerializer
from tournaments.web.api.serializers.rating import (
    HeadToHeadSerializer,
    ProfileSerializer,
    RatingPageSerializer,
    RatingQuerySerializer,
    RatingRowSerializer,
)
from tournaments.web.api.serializers.series import (
    SeriesSerializer,
    SeriesStandingsSerializer,
    SeriesWriteSerializer,
)
from tournaments.web.api.views import TournamentScopedView, _errors
from tournaments.web.shared import permissions
from tournaments.web.shared.api import PAGE_PARAMETERS, api_paginator
from tournaments.web.shared.permissions import signed_in
from tournaments.web.shared.players import me_context


def player_brief(player: Player | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": player.name,
        "city": player.city,
        "club": player.club,
        "rating": player.rating,
    }


def entry_row(reg: Registration, position: int | None = None) -> dict[str, Any]:
    return {
        "id": reg.pk,
        "player": player_brief(reg.player),
        "status": reg.status,
        "online": reg.online,
        "position": position,
        "checked_in": reg.checked_in_at is not None,
        "promoted": reg.promoted_at is not None,
    }


class PublicRead(BasePermission):
    """Reads of shared data: anyone (what a private tournament holds is filtered out)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS


# --- players --------------------------------------------------------------------------------


@extend_schema(tags=["players"])
class RatingListView(APIView):
    permission_classes = [PublicRead]

    @extend_schema(
        parameters=[RatingQuerySerializer, *PAGE_PARAMETERS],
        responses={200: RatingPageSerializer, **_errors(400)},
        description="Everyone with a rating, with the place in the whole list and the change "
        "over the last 30 days; search folds case and yo/ye; paginated (limit, offset).",
    )
    def get(self, request: Request) -> Response:
        query = RatingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        rows = selectors_players.rating_list(
            search=data["search"], city=data["city"], club=data["club"], sort=data["sort"]
        )
        paginator = api_paginator()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(RatingRowSerializer(page, many=True).data)


@extend_schema(tags=["players"])
class ProfileView(APIView):
    permission_classes = [PublicRead]

    @extend_schema(responses={200: ProfileSerializer, **_errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        user = request.user
        chart = selectors_players.player_chart(player=player, user=user)
        matches = selectors_players.player_matches(player=player, user=user)[:30]
        data = {
            "player": player_brief(player),
            "place": selectors_players.rating_place(player=player),
            "chart": [
                {"rating": m.rating, "delta": m.delta, "label": m.label}
                for m in (chart.markers if chart else [])
            ],
            "tournaments": selectors_players.player_tournaments(player=player, user=user),
            "matches": [
                {**vars(line), "opponent": player_brief(line.opponent)}
                for line in selectors_players.match_lines(matches, player)
            ],
            "series": [
                row["series"] for row in selectors_players.player_series(player=player, user=user)
            ],
        }
        return Response(ProfileSerializer(data).data)


@extend_schema(tags=["players"])
class HeadToHeadView(APIView):
    permission_classes = [PublicRead]

    @extend_schema(responses={200: HeadToHeadSerializer, **_errors(404)})
    def get(self, request: Request, pk: int, other: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        opponent = get_object_or_404(Player.objects.exclude(pk=pk), pk=other)
        h2h = selectors_players.head_to_head(player=player, other=opponent, user=request.user)
        data = {
            **h2h,
            "player": player_brief(player),
            "opponent": player_brief(opponent),
            "matches": [
                {**vars(line), "opponent": player_brief(line.opponent)} for line in h2h["matches"]
            ],
        }
        return Response(HeadToHeadSerializer(data).data)


# --- online entry ---------------------------------------------------------------------------


class EntryPermission(BasePermission):
    """Read: anyone who may see the tournament. Enter: any login (the service checks he is a
    player and entry is open)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        permissions.require_visible(request.user, obj)
        return True


def _entry_state(tournament: Tournament, user: Any) -> dict[str, Any]:
    player = Player.objects.filter(user=user).first() if user.is_authenticated else None
    mine = (
        Registration.objects.filter(tournament=tournament, player=player)
        .select_related("player")
        .first()
        if player is not None
        else None
    )
    reserves = entry_rules.reserve_list(tournament=tournament)
    return {
        "state": entry_rules.entry_window_state(tournament),
        "opens_at": tournament.entry_opens_at,
        "closes_at": tournament.entry_closes_at,
        "min_rating": tournament.entry_min_rating,
        "max_rating": tournament.entry_max_rating,
        "max_players": tournament.max_players,
        "entered": Registration.objects.filter(
            tournament=tournament, status=Registration.Status.ACTIVE
        ).count(),
        "fee_due": fee_for(tournament, player.rating) if player is not None else None,
        "mine": entry_row(mine, entry_rules.reserve_position(mine)) if mine is not None else None,
        "reserves": [entry_row(r, i) for i, r in enumerate(reserves, start=1)],
    }


@extend_schema(tags=["entries"])
class EntryView(TournamentScopedView):
    permission_classes = [EntryPermission]

    @extend_schema(responses={200: EntryStateSerializer, **_errors(404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        return Response(EntryStateSerializer(_entry_state(tournament, request.user)).data)

    @extend_schema(
        request=None,
        responses={201: EntryStateSerializer, **_errors(403, 404, 409)},
        description="The logged-in player enters himself: in up to the maximum, then on the "
        "numbered reserve list.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        services.entry_submit(tournament=tournament, user=request.user)
        return Response(
            EntryStateSerializer(_entry_state(tournament, request.user)).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema(tags=["entries"])
class EntryWithdrawView(TournamentScopedView):
    permission_classes = [EntryPermission]

    @extend_schema(
        request=None,
        responses={200: EntryStateSerializer, **_errors(403, 404, 409)},
        description="The player takes back his own entry before the draw; the first reserve "
        "moves up.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = entries.own_registration(tournament=tournament, user=request.user)
        services.entry_withdraw(registration=reg, user=request.user)
        return Response(EntryStateSerializer(_entry_state(tournament, request.user)).data)


@extend_schema(tags=["entries"])
class EntrySettingsView(TournamentScopedView):
    @extend_schema(responses={200: EntrySettingsSerializer, **_errors(404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        return Response(
            EntrySettingsSerializer({f: getattr(tournament, f) for f in entries.ENTRY_FIELDS}).data
        )

    @extend_schema(
        request=EntrySettingsSerializer,
        responses={200: EntrySettingsSerializer, **_errors(400, 403, 404, 409)},
    )
    def patch(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        data = EntrySettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        tournament = entries.tournament_entry_settings(
            tournament=tournament, actor=request.user, data=dict(data.validated_data)
        )
        return Response(
            EntrySettingsSerializer({f: getattr(tournament, f) for f in entries.ENTRY_FIELDS}).data
        )


@extend_schema(tags=["entries"])
class ReserveListView(TournamentScopedView):
    @extend_schema(responses={200: EntryRowSerializer(many=True), **_errors(404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        rows = entry_rules.reserve_list(tournament=tournament)
        return Response(
            EntryRowSerializer(
                [entry_row(r, i) for i, r in enumerate(rows, start=1)], many=True
            ).data
        )


@extend_schema(tags=["registrations"])
class CheckInView(TournamentScopedView):
    @extend_schema(
        request=CheckInSerializer,
        responses={200: EntryRowSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = self.get_registration(tournament)
        data = CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_check_in(
            registration=reg, actor=request.user, present=data.validated_data["present"]
        )
        return Response(EntryRowSerializer(entry_row(reg, entry_rules.reserve_position(reg))).data)


@extend_schema(tags=["registrations"])
class RemoveAbsentView(TournamentScopedView):
    @extend_schema(
        request=None,
        responses={200: RemoveAbsentSerializer, **_errors(403, 404, 409)},
        description="Before the draw: withdraw everyone not checked in; checked-in reserves "
        "move up in order.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        result = services.registration_remove_absent(tournament=tournament, actor=request.user)
        return Response(RemoveAbsentSerializer(result).data)


@extend_schema(tags=["entries"])
class PlayerRequestListView(TournamentScopedView):
    permission_classes = [EntryPermission]

    @extend_schema(responses={200: PlayerRequestSerializer(many=True), **_errors(403, 404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        access.require_manage(request.user, tournament)
        rows = PlayerRequest.objects.filter(tournament=tournament).order_by("-created_at", "-pk")
        return Response(PlayerRequestSerializer(rows, many=True).data)

    @extend_schema(
        request=PlayerRequestWriteSerializer,
        responses={201: PlayerRequestSerializer, **_errors(400, 403, 404, 409)},
        description="A login without a player asks the organisers to add him (and enter him).",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        data = PlayerRequestWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = services.player_request_create(
            user=signed_in(request), tournament=tournament, **data.validated_data
        )
        return Response(PlayerRequestSerializer(created).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["entries"])
class PlayerRequestDecideView(TournamentScopedView):
    @extend_schema(
        request=PlayerRequestDecideSerializer,
        responses={200: PlayerRequestSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_pk: int, request_pk: int) -> Response:
        tournament = self.get_tournament()
        access.require_manage(request.user, tournament)
        found = get_object_or_404(PlayerRequest, tournament=tournament, pk=request_pk)
        data = PlayerRequestDecideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        decided = services.player_request_decide(
            request=found, actor=request.user, approve=data.validated_data["approve"]
        )
        return Response(PlayerRequestSerializer(decided).data)


# --- club cups ------------------------------------------------------------------------------


def _stage_tournaments(request: Request, ids: list[int]) -> list[Tournament]:
    found = {t.pk: t for t in access.managed_tournaments(request.user).filter(pk__in=ids)}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise TournamentError(
            "forbidden",
            _("Only tournaments you organise can be stages of your series."),
            status=FORBIDDEN,
            params={"field": "tournaments", "tournaments": missing},
        )
    return [found[pk] for pk in ids]


def _series_out(series: Series, user: Any) -> dict[str, Any]:
    stages = selectors_players.series_stages(series=series, user=user)
    return SeriesSerializer(series, context={"stages": stages}).data


class SeriesPermission(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if request.method == "POST":
            return access.is_organiser_role(request.user)
        return bool(request.user and request.user.is_authenticated)


@extend_schema(tags=["series"])
class SeriesListView(APIView):
    permission_classes = [SeriesPermission]

    @extend_schema(responses={200: SeriesSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = selectors_players.series_visible(user=request.user).order_by("-created_at", "-pk")[
            :200
        ]
        return Response([_series_out(s, request.user) for s in rows])

    @extend_schema(
        request=SeriesWriteSerializer,
        responses={201: SeriesSerializer, **_errors(400, 403)},
    )
    def post(self, request: Request) -> Response:
        data = SeriesWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        stages = _stage_tournaments(request, values.pop("tournaments", []))
        series = series_services.series_create(actor=request.user, data=values, tournaments=stages)
        return Response(_series_out(series, request.user), status=status.HTTP_201_CREATED)


@extend_schema(tags=["series"])
class SeriesDetailView(APIView):
    permission_classes = [SeriesPermission]

    def get_series(self) -> Series:
        return get_object_or_404(
            selectors_players.series_visible(user=self.request.user), pk=self.kwargs["pk"]
        )

    @extend_schema(responses={200: SeriesSerializer, **_errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(_series_out(self.get_series(), request.user))

    @extend_schema(
        request=SeriesWriteSerializer,
        responses={200: SeriesSerializer, **_errors(400, 403, 404)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        series = self.get_series()
        data = SeriesWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        ids = values.pop("tournaments", None)
        if not series_services.can_manage_series(request.user, series):
            raise TournamentError("forbidden", _("Not your series."), status=FORBIDDEN)
        stages = None if ids is None else _stage_tournaments(request, ids)
        series = series_services.series_update(
            series=series, actor=request.user, data=values, tournaments=stages
        )
        return Response(_series_out(series, request.user))


@extend_schema(tags=["series"])
class SeriesStandingsView(SeriesDetailView):
    http_method_names = ["get", "head", "options"]

    @extend_schema(responses={200: SeriesStandingsSerializer, **_errors(400, 404)})
    def get(self, request: Request, pk: int) -> Response:
        series = self.get_series()
        after = request.query_params.get("after")
        if after is not None and not (after.isdigit() and 1 <= int(after) <= 50):
            raise TournamentError(
                "invalid",
                _("after: a stage number from 1 to 50."),
                status=400,
                params={"field": "after"},
            )
        table = selectors_players.series_table(
            series=series, user=request.user, after=int(after) if after else None
        )
        data = {
            "series": series.pk,
            "stages": [
                {"number": s.number, "tournament": s.tournament_id, "name": s.tournament.name}
                for s in table["counted_stages"]
            ],
            "rows": [{**row, "player": player_brief(row["player"])} for row in table["rows"]],
        }
        return Response(SeriesStandingsSerializer(data).data)


# --- my match -------------------------------------------------------------------------------


@extend_schema(tags=["players"])
class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeSerializer, **_errors(403)})
    def get(self, request: Request) -> Response:
        player = Player.objects.filter(user=signed_in(request)).first()
        if player is None:
            return Response({"player": None, "next_match": None, "entries": []})
        context = me_context(player, request.user)
        nxt = context["next"]
        next_match = None
        if nxt is not None:
            match = nxt["match"]
            next_match = {
                "id": match.pk,
                "tournament": match.tournament_id,
                "status": match.status,
                "called": nxt["called"],
                "table": match.table.number if match.table else None,
                "opponent": player_brief(nxt["opponent"]),
                "head_start": {"mine": nxt["head_mine"], "opponent": nxt["head_other"]},
                "balls_to_win": nxt["balls_to_win"],
                "frames_to_win": nxt["frames_to_win"],
                "score_url": reverse("referee-match", args=[match.pk])
                if nxt["self_scoring"]
                else None,
            }
        data = {
            "player": player_brief(player),
            "next_match": next_match,
            "entries": [entry_row(r["reg"], r["position"]) for r in context["registrations"]],
        }
        return Response(MeSerializer(data).data)
