"""REST API of players, tournaments, registrations, the draw, the bracket, standings and prizes.
Views only parse, check permissions (tournaments.access) and call services or selectors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.viewsets import GenericViewSet

from config.serializers import ErrorSerializer
from matches.models import Match
from tournaments import access, services
from tournaments.models import Player, Registration, Tournament
from tournaments.presentation import bracket_shown, standings_shown
from tournaments.presets import PRESETS
from tournaments.selectors.audit import tournament_audit
from tournaments.selectors.bracket import tournament_bracket
from tournaments.selectors.desk import registration_list, registration_totals
from tournaments.selectors.players import (
    match_rating_changes,
    player_list,
    player_rating_history_for,
)
from tournaments.selectors.prizes import tournament_prizes
from tournaments.selectors.standings import tournament_standings
from tournaments.selectors.tournament import tournament_list
from tournaments.web.api.serializers.audit import AuditQuerySerializer
from tournaments.web.api.serializers.bracket import (
    BracketSerializer,
    DrawPreviewQuerySerializer,
    DrawSerializer,
)
from tournaments.web.api.serializers.corrections import (
    CorrectResultSerializer,
    HandicapSerializer,
    MatchRatingSerializer,
    MatchSummarySerializer,
    NoShowSerializer,
)
from tournaments.web.api.serializers.players import (
    PlayerDetailSerializer,
    PlayerSearchQuerySerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PlayerWriteSerializer,
)
from tournaments.web.api.serializers.prizes import PrizesSerializer
from tournaments.web.api.serializers.registrations import (
    RegistrationCreateSerializer,
    RegistrationPageSerializer,
    RegistrationSerializer,
    RegistrationUpdateSerializer,
    TotalsSerializer,
    WithdrawSerializer,
)
from tournaments.web.api.serializers.standings import StandingsSerializer
from tournaments.web.api.serializers.tournament import (
    PresetSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
    TournamentWriteSerializer,
)
from tournaments.web.shared import http_cache, permissions
from tournaments.web.shared.api import (
    AUDIT_PAGE_PARAMETERS,
    PAGE_PARAMETERS,
    api_paginator,
    audit_page,
)
from tournaments.web.shared.serializers import AuditPageSerializer

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input or settings."),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed."),
    404: OpenApiResponse(ErrorSerializer, description="Not found."),
    409: OpenApiResponse(ErrorSerializer, description="Conflicts with the current state."),
    422: OpenApiResponse(ErrorSerializer, description="Forbidden by the tournament's rules."),
}


NOT_MODIFIED = OpenApiResponse(description="Not modified since the ETag given.")
PUBLIC_READ = (
    "Answered with an ETag (the tournament's public version); sent back in If-None-Match, an "
    "unchanged answer is 304 with no body."
)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: ERRORS[code] for code in codes}


class OrganiserRoleOrReadOnly(BasePermission):
    """Read: anyone. Write: members of the organiser group (players are shared by all)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or access.is_organiser_role(request.user)


class PlayerPermission(OrganiserRoleOrReadOnly):
    """Players are shared: organisers create them; an edit is any login's to ask, and the
    identity rule (access.can_edit_player_identity, in the service) answers it, so that a
    player may correct his own name."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if getattr(view, "action", None) == "partial_update":
            return bool(request.user and request.user.is_authenticated)
        return super().has_permission(request, view)


def _managed_ids(request: Request) -> set[int]:
    user = request.user
    if not user.is_authenticated:
        return set()
    return set(user.organised_tournaments.values_list("pk", flat=True))


# --- players -------------------------------------------------------------------------------


@extend_schema(tags=["players"])
class PlayerViewSet(GenericViewSet[Player]):
    permission_classes = [PlayerPermission]
    serializer_class = PlayerSerializer
    queryset = Player.objects.all()

    @extend_schema(
        parameters=[PlayerSearchQuerySerializer],
        responses={200: PlayerSerializer(many=True), **_errors(400)},
    )
    def list(self, request: Request) -> Response:
        query = PlayerSearchQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        players = player_list(search=query.validated_data.get("search", ""))
        page = self.paginate_queryset(players) or []  # None only without a paginator
        context: dict[str, Any] = {"request": request}
        if "tournament" in query.validated_data:
            visible = tournament_list(user=request.user)
            context["statuses"] = dict(
                Registration.objects.filter(
                    tournament__in=visible.filter(pk=query.validated_data["tournament"]),
                    player__in=[p.pk for p in page],
                ).values_list("player_id", "status")
            )
        return self.get_paginated_response(PlayerSerializer(page, many=True, context=context).data)

    @extend_schema(
        request=PlayerWriteSerializer,
        responses={201: PlayerSerializer, **_errors(400, 403, 409)},
    )
    def create(self, request: Request) -> Response:
        data = PlayerWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        confirm = values.pop("confirm")
        player = services.player_create(actor=request.user, confirm_duplicate=confirm, **values)
        body = PlayerSerializer(player, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: PlayerDetailSerializer, **_errors(404)})
    def retrieve(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        # Players are shared, but a private tournament's games are not: its entries are one
        # anonymous line.
        history = player_rating_history_for(player=player, user=request.user)
        context = {"request": request, "rating_history": history}
        return Response(PlayerDetailSerializer(player, context=context).data)

    @extend_schema(
        request=PlayerUpdateSerializer,
        responses={200: PlayerSerializer, **_errors(400, 403, 404, 409)},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        data = PlayerUpdateSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        player = services.player_update(player=player, actor=request.user, data=data.validated_data)
        return Response(PlayerSerializer(player, context={"request": request}).data)


# --- tournaments -----------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentViewSet(GenericViewSet[Tournament]):
    permission_classes = [permissions.TournamentPermission]
    creates_tournament = True
    serializer_class = TournamentSerializer

    def get_queryset(self) -> Any:
        return tournament_list(user=self.request.user).prefetch_related("organisers")

    def _context(self) -> dict[str, Any]:
        return {"request": self.request, "managed": _managed_ids(self.request)}

    def _out(self, tournament: Tournament) -> dict[str, Any]:
        return TournamentSerializer(tournament, context=self._context()).data

    @extend_schema(responses=TournamentSerializer(many=True))
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        data = TournamentSerializer(page, many=True, context=self._context()).data
        return self.get_paginated_response(data)

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={201: TournamentSerializer, **_errors(400, 403)},
    )
    def create(self, request: Request) -> Response:
        data = TournamentWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        preset = values.pop("preset", "")
        tournament = services.tournament_create(actor=request.user, data=values, preset=preset)
        return Response(self._out(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: TournamentSerializer, **_errors(404)})
    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(self._out(self.get_object()))

    @extend_schema(
        request=TournamentUpdateSerializer,
        responses={200: TournamentSerializer, **_errors(400, 403, 404, 409)},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        data = TournamentUpdateSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_update(
            tournament=tournament, actor=request.user, data=data.validated_data
        )
        return Response(self._out(tournament))

    @extend_schema(request=None, responses={200: TournamentSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request: Request, pk: str) -> Response:
        tournament = services.tournament_open_registration(
            tournament=self.get_object(), actor=request.user
        )
        return Response(self._out(tournament))

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **_errors(403, 404, 409)},
        description="Close registration before the draw: desk and online entries are refused "
        "(409 `registration_closed`, params.state `closed`) until it is reopened. 409 "
        "`registration_state` (params.state) when it is not open.",
    )
    @action(detail=True, methods=["post"], url_path="close-registration")
    def close_registration(self, request: Request, pk: str) -> Response:
        tournament = services.tournament_close_registration(
            tournament=self.get_object(), actor=request.user
        )
        return Response(self._out(tournament))

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **_errors(403, 404, 409)},
        description="Reopen a closed registration (registration_state `reopened`). 409 "
        "`registration_state` (params.state) when it is not closed.",
    )
    @action(detail=True, methods=["post"], url_path="reopen-registration")
    def reopen_registration(self, request: Request, pk: str) -> Response:
        tournament = services.tournament_reopen_registration(
            tournament=self.get_object(), actor=request.user
        )
        return Response(self._out(tournament))

    @extend_schema(request=None, responses={200: TournamentSerializer, **_errors(403, 404, 409)})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        tournament = services.tournament_start(tournament=self.get_object(), actor=request.user)
        return Response(self._out(tournament))

    @extend_schema(
        request=DrawSerializer,
        responses={200: BracketSerializer, **_errors(400, 403, 404, 409, 422)},
        description="Draw the bracket: seeded (by rating), random (a stored, replayable seed) "
        "or manual (the order of player ids). Unpaid entry fees stop it unless allow_unpaid.",
    )
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        data = DrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        tournament = services.tournament_draw(
            tournament=tournament,
            actor=request.user,
            method=v["method"],
            random_seed=v.get("random_seed"),
            manual_order=v.get("order"),
            allow_unpaid=v["allow_unpaid"],
        )
        return Response(bracket_shown(tournament_bracket(tournament=tournament)))

    @extend_schema(
        parameters=[DrawPreviewQuerySerializer],
        responses={200: BracketSerializer, **_errors(400, 403, 404, 409, 422)},
        description="The bracket a draw would make, nothing stored. A random preview returns "
        "its random_seed: drawing with it gives this bracket.",
    )
    @action(detail=True, methods=["get"], url_path="draw-preview")
    def draw_preview(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        access.require_manage(request.user, tournament)
        query = DrawPreviewQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        v = query.validated_data
        preview = services.tournament_draw_preview(
            tournament=tournament,
            method=v["method"],
            random_seed=v.get("random_seed"),
            manual_order=v.get("order"),
        )
        return Response(bracket_shown(preview))

    def _public_read(
        self,
        request: Request,
        tournament: Tournament,
        name: str,
        etag: str,
        compute: Callable[[], Any],
    ) -> Response:
        """A read that grows with the tournament (a 1024-player bracket is ~1 MB of JSON):
        computed once per version and language into the shared cache, 304 to a client that
        has this version (ETag / If-None-Match)."""
        tag = f'W/"{name}-{etag}-{get_language()}"'
        current = True
        if http_cache.not_modified(request, tag):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            place = http_cache.page_cache(tournament, etag, f"api-{name}")
            data, current = http_cache.cached_value(place, compute)
            response = Response(data)
        if current:  # the last version while another process computes this one: no ETag
            response["ETag"] = tag
        patch_cache_control(response, no_cache=True, private=True)
        return response

    @extend_schema(
        responses={200: BracketSerializer, 304: NOT_MODIFIED, **_errors(404)},
        description=PUBLIC_READ + " Match statuses follow within 30 s while it runs.",
    )
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        return self._public_read(
            request,
            tournament,
            "bracket",
            http_cache.bracket_etag(tournament),
            lambda: bracket_shown(tournament_bracket(tournament=tournament)),
        )

    @extend_schema(
        responses={200: StandingsSerializer, 304: NOT_MODIFIED, **_errors(404)},
        description=PUBLIC_READ,
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        return self._public_read(
            request,
            tournament,
            "standings",
            http_cache.tournament_etag(tournament),
            lambda: standings_shown(tournament_standings(tournament=tournament)),
        )

    @extend_schema(
        responses={200: PrizesSerializer, 304: NOT_MODIFIED, **_errors(404)},
        description=PUBLIC_READ,
    )
    @action(detail=True, methods=["get"])
    def prizes(self, request: Request, pk: str) -> Response:
        tournament = self.get_object()
        return self._public_read(
            request,
            tournament,
            "prizes",
            http_cache.tournament_etag(tournament),
            lambda: dict(PrizesSerializer(tournament_prizes(tournament=tournament)).data),
        )


@extend_schema(tags=["tournaments"])
class PresetListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PresetSerializer(many=True))
    def get(self, request: Request) -> Response:
        data = [
            {
                "slug": p.slug,
                "title": str(p.title),
                "description": str(p.description),
                "fields": p.fields,
            }
            for p in PRESETS.values()
        ]
        return Response(data)


# --- registrations and matches of one tournament ---------------------------------------------


class TournamentScopedView(APIView):
    permission_classes = [permissions.TournamentPermission]

    def get_tournament(self) -> Tournament:
        tournament = get_object_or_404(
            tournament_list(user=self.request.user), pk=self.kwargs["tournament_pk"]
        )
        self.check_object_permissions(self.request, tournament)
        return tournament

    def registration_out(self, tournament: Tournament, reg: Any, many: bool = False) -> Any:
        context = {"can_manage": access.can_manage_tournament(self.request.user, tournament)}
        return RegistrationSerializer(reg, many=many, context=context).data

    def get_registration(self, tournament: Tournament) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player"),
            tournament=tournament,
            pk=self.kwargs["registration_pk"],
        )

    def get_match(self, tournament: Tournament) -> Any:
        return get_object_or_404(Match, tournament=tournament, pk=self.kwargs["match_pk"])


@extend_schema(tags=["registrations"])
class RegistrationListView(TournamentScopedView):
    @extend_schema(
        parameters=PAGE_PARAMETERS,
        operation_id="tournaments_registrations_list",
        responses={200: RegistrationPageSerializer, **_errors(404)},
        description="One page of the list (limit/offset): seeded order after the draw, "
        "registration order before it.",
    )
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        paginator = api_paginator()
        regs = registration_list(tournament=tournament)
        page = paginator.paginate_queryset(regs, request, view=self)
        return paginator.get_paginated_response(self.registration_out(tournament, page, many=True))

    @extend_schema(
        request=RegistrationCreateSerializer,
        responses={201: RegistrationSerializer, **_errors(400, 403, 404, 409)},
        description="Register an existing player ({player_id}) or a new one ({player: {name, "
        "city, club, rating}}); the fee is priced from his rating.",
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        data = RegistrationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "player_id" in v:
            player = get_object_or_404(Player, pk=v["player_id"])
            reg = services.registration_add(
                tournament=tournament, player=player, actor=request.user
            )
        else:
            values = dict(v["player"])
            confirm = values.pop("confirm", False)
            reg = services.registration_add_new_player(
                tournament=tournament, actor=request.user, confirm_duplicate=confirm, **values
            )
        reg = Registration.objects.select_related("player").get(pk=reg.pk)
        return Response(self.registration_out(tournament, reg), status=status.HTTP_201_CREATED)


@extend_schema(tags=["registrations"])
class RegistrationTotalsView(TournamentScopedView):
    @extend_schema(responses={200: TotalsSerializer, **_errors(403, 404)})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        access.require_manage(request.user, tournament)
        totals = registration_totals(tournament=tournament)
        return Response(TotalsSerializer(totals).data)


@extend_schema(tags=["registrations"])
class RegistrationDetailView(TournamentScopedView):
    @extend_schema(responses={200: RegistrationSerializer, **_errors(404)})
    def get(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        return Response(self.registration_out(tournament, self.get_registration(tournament)))

    @extend_schema(
        request=RegistrationUpdateSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 403, 404, 409)},
    )
    def patch(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = self.get_registration(tournament)
        data = RegistrationUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "paid" in data.validated_data:
            reg = services.registration_set_paid(
                registration=reg, paid=data.validated_data["paid"], actor=request.user
            )
            reg = Registration.objects.select_related("player").get(pk=reg.pk)
        return Response(self.registration_out(tournament, reg))


@extend_schema(tags=["registrations"])
class RegistrationWithdrawView(TournamentScopedView):
    @extend_schema(
        request=WithdrawSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 403, 404, 409)},
        description="Before the draw the player leaves the list; after it his matches become "
        "walkovers (at once, or as soon as his next opponent is known).",
    )
    def post(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = self.get_registration(tournament)
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdraw(
            registration=reg, actor=request.user, reason=data.validated_data["reason"]
        )
        reg = Registration.objects.select_related("player").get(pk=reg.pk)
        return Response(self.registration_out(tournament, reg))


@extend_schema(tags=["registrations"])
class RegistrationRefundView(TournamentScopedView):
    @extend_schema(
        request=WithdrawSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 403, 404, 409)},
        description="Give a player who is out (withdrawn, disqualified, reserve) his paid fee "
        "back, whatever the tournament's withdrawal_fee says: recorded (who, when, how much) "
        "and audited; the pool is a share of the fees kept. 409 `registration_active` for a "
        "player still in, `not_paid` when nothing was paid.",
    )
    def post(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = self.get_registration(tournament)
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_refund(
            registration=reg, actor=request.user, reason=data.validated_data["reason"]
        )
        reg = Registration.objects.select_related("player").get(pk=reg.pk)
        return Response(self.registration_out(tournament, reg))


@extend_schema(tags=["registrations"])
class RegistrationDisqualifyView(TournamentScopedView):
    @extend_schema(
        request=WithdrawSerializer,
        responses={200: RegistrationSerializer, **_errors(400, 403, 404, 409)},
        description="After the draw: his matches become walkovers as for a withdrawal; he keeps "
        "the place he reached, marked, and by default gets no prize and no diploma.",
    )
    def post(self, request: Request, tournament_pk: int, registration_pk: int) -> Response:
        tournament = self.get_tournament()
        reg = self.get_registration(tournament)
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_disqualify(
            registration=reg, actor=request.user, reason=data.validated_data["reason"]
        )
        reg = Registration.objects.select_related("player").get(pk=reg.pk)
        return Response(self.registration_out(tournament, reg))


@extend_schema(tags=["matches"])
class MatchNoShowView(TournamentScopedView):
    @extend_schema(
        request=NoShowSerializer,
        responses={200: MatchSummarySerializer, **_errors(400, 403, 404, 409)},
        description="The player in slot `absent` did not come: he loses by walkover, then drops "
        "to the lower bracket or is out of the tournament, as the tournament's no_show_rule says.",
    )
    def post(self, request: Request, tournament_pk: int, match_pk: int) -> Response:
        tournament = self.get_tournament()
        match = self.get_match(tournament)
        data = NoShowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_no_show(
            match=match, absent_slot=data.validated_data["absent"], actor=request.user
        )
        return Response(MatchSummarySerializer(match).data)


@extend_schema(tags=["matches"])
class MatchHandicapView(TournamentScopedView):
    @extend_schema(
        request=HandicapSerializer,
        responses={200: MatchSummarySerializer, **_errors(400, 403, 404, 409)},
        description="Override the head start (and race) of a match that has not started.",
    )
    def post(self, request: Request, tournament_pk: int, match_pk: int) -> Response:
        tournament = self.get_tournament()
        match = self.get_match(tournament)
        data = HandicapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_set_handicap(
            match=match,
            head_start=data.validated_data["head_start"],
            balls_to_win=data.validated_data.get("balls_to_win"),
            actor=request.user,
        )
        return Response(MatchSummarySerializer(match).data)


@extend_schema(tags=["matches"])
class MatchCorrectView(TournamentScopedView):
    @extend_schema(
        request=CorrectResultSerializer,
        responses={200: MatchSummarySerializer, **_errors(400, 403, 404, 409)},
        description="Correct a finished result while the matches it fed have not started; "
        "players are re-routed and ratings recomputed.",
    )
    def post(self, request: Request, tournament_pk: int, match_pk: int) -> Response:
        tournament = self.get_tournament()
        match = self.get_match(tournament)
        data = CorrectResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        match = services.match_correct_result(
            match=match,
            winner_slot=v["winner"],
            score_a=v["score_a"],
            score_b=v["score_b"],
            reason=v["reason"],
            actor=request.user,
        )
        return Response(MatchSummarySerializer(match).data)


@extend_schema(tags=["matches"])
class MatchRatingView(TournamentScopedView):
    @extend_schema(responses={200: MatchRatingSerializer, **_errors(404)})
    def get(self, request: Request, tournament_pk: int, match_pk: int) -> Response:
        tournament = self.get_tournament()
        match = self.get_match(tournament)
        return Response(match_rating_changes(match=match))


# --- the audit log -----------------------------------------------------------------------------


@extend_schema(tags=["audit"])
class TournamentAuditView(TournamentScopedView):
    @extend_schema(
        parameters=[AuditQuerySerializer, *AUDIT_PAGE_PARAMETERS],
        responses={200: AuditPageSerializer, **_errors(400, 403, 404)},
        description="Who did what in the tournament, newest first: registrations, fees, the "
        "draw, handicaps, corrections, events, undos, clocks, tables. Its organisers only.",
    )
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_tournament()
        access.require_manage(request.user, tournament)
        query = AuditQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        entries = tournament_audit(
            tournament=tournament, match_id=query.validated_data.get("match")
        )
        return audit_page(request, self, entries)
