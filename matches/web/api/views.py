"""REST API of matches: the match, its log, scoring writes, the clock, judge calls and tables.

Views are thin: they check who may act (tournaments.web.shared.permissions, declared per
view; matches.access decides), validate the body and call one service; the service's refusals become 409/422 answers here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from config.idempotency import inline_key, request_fingerprint
from config.serializers import ErrorSerializer, validated
from matches import selectors, services
from matches.access import match_scoring_role
from matches.errors import MatchError
from matches.models import Match, Table
from matches.representation import match_data
from matches.web.api.serializers.log import MatchEventLogSerializer, MatchLogQuerySerializer
from matches.web.api.serializers.match import MatchConflictSerializer, MatchDetailSerializer
from matches.web.api.serializers.tables import (
    TableAssignmentsSerializer,
    TableBoardMatchSerializer,
    TableBoardSerializer,
    TablesEnsureWriteSerializer,
    TournamentTableSerializer,
)
from matches.web.api.serializers.writes import (
    MatchClockWriteSerializer,
    MatchEventWriteSerializer,
    MatchHoldWriteSerializer,
    MatchJudgeWriteSerializer,
    MatchTableWriteSerializer,
    MatchUndoWriteSerializer,
    MatchWalkoverWriteSerializer,
)
from tournaments.access import can_manage_tournament
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.selectors.audit import tournament_audit
from tournaments.web.shared import http_cache
from tournaments.web.shared.api import AUDIT_PAGE_PARAMETERS, audit_page
from tournaments.web.shared.permissions import MatchWritePermission, TournamentPermission
from tournaments.web.shared.serializers import AuditPageSerializer

_400 = OpenApiResponse(description="The body is malformed: field errors.")
_403 = OpenApiResponse(description="Not allowed for this user.")
_404 = OpenApiResponse(description="No such match (or tournament, table).")
_409 = OpenApiResponse(
    MatchConflictSerializer,
    description="Out of order (stale version, clock, table): the current match is included.",
)
_422 = OpenApiResponse(
    ErrorSerializer,
    description="Impossible: the engine's refusal (out_of_turn, unexpected_event, finished, "
    "too_many_balls, invalid_event) or nothing to undo; `message` is in the user's language.",
)
_409_PLAIN = OpenApiResponse(ErrorSerializer, description="The table is not in that state.")
WRITE_ERRORS = {400: _400, 403: _403, 404: _404, 409: _409, 422: _422}
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    description="The match's version tag (weak): send it back as If-None-Match.",
    response=[200, 304],
    required=True,
)


def render_match(match: Match, *, entry: bool = False) -> dict[str, Any]:
    """The match representation, as every read and write answers it; with `entry` (what may
    be entered now) only where it was asked for."""
    return match_data(match, entry=entry)


def asks_entry(request: Request) -> bool:
    """?referee=1: the answer carries `entry`. On a write (and a conflict's current match) no
    role check is needed, only those who may score the match write; the referee form asks on
    every request, an integrator posting events does not pay for it."""
    value = request.query_params.get("referee")
    if value is not None and value != "1":
        # The schema's only value: anything else is a mistake, not a quiet "no".
        raise ValidationError({"referee": [_("The only value is 1.")]})
    return value == "1"


def answer_of(request: Request) -> services.Answer:
    """What a write answers: the match, with `entry` when the client asked (?referee=1)."""
    return services.Answer.MATCH_AND_ENTRY if asks_entry(request) else services.Answer.MATCH


def wants_entry(request: Request, match: Match) -> bool:
    """A read carries `entry` when asked for (?referee=1) by someone who may score the match;
    a spectator's poll costs no role check."""
    if not asks_entry(request):
        return False
    return match_scoring_role(request.user, match) is not None


def _run(
    request: Request, match_id: int, write: Callable[[], services.WriteResult | Match]
) -> Response:
    """Call a service and render its result. Its refusal (an ApiError) goes to the API's one
    exception handler; a conflict (409) carries the current match, to refresh from. A
    TournamentError is the tournament refusing the write's consequences (e.g. the next match
    has started): nothing of it was kept."""
    entry = asks_entry(request)
    try:
        result = write()
    except (MatchError, TournamentError) as err:
        if err.status == status.HTTP_409_CONFLICT:
            err.extra["match"] = render_match(selectors.match_get(match_id=match_id), entry=entry)
        raise
    if isinstance(result, Match):
        return Response(render_match(selectors.match_get(match_id=result.pk), entry=entry))
    return Response(result.body, status=result.status_code)


def idempotency(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    """The key of a scoring write (the Idempotency-Key header, or `idempotency_key` in the
    body as before) and the request's fingerprint, which its service keeps with the answer
    (config.idempotency: the same key with another request is 422, whatever the version)."""
    body = json.dumps(request.data, sort_keys=True, default=str).encode()
    fingerprint = request_fingerprint(
        method=request.method or "",
        path=request.get_full_path(),
        body=body,
        user_id=request.user.pk if request.user.is_authenticated else None,
    )
    key = inline_key(request) or data.get("idempotency_key")
    return {"idempotency_key": key, "request_hash": fingerprint}


class MatchViewSet(viewsets.GenericViewSet[Match]):
    """One match: read by anyone who may see the tournament; written by its organisers, its
    referees and, with self-scoring, its two players."""

    queryset = selectors.match_queryset()
    permission_classes = [MatchWritePermission]
    serializer_class = MatchDetailSerializer
    # These keep their idempotency keys in the write's own statement (config.idempotency).
    inline_idempotency_actions = ("events", "undo", "clock", "judge")

    @extend_schema(
        summary="A match: players, head start, table, engine state, clock, version, last events",
        description="Answered with an ETag; sent back in If-None-Match, an unchanged match is "
        "304 with no body (a new event, clock or table change makes a new ETag). With "
        "?referee=1, someone who may score the match also gets `entry` (what may be entered "
        "now); everyone gets `view`.",
        parameters=[
            OpenApiParameter(
                "referee",
                int,
                OpenApiParameter.QUERY,
                enum=[1],
                description="1: include `entry` when you may score this match.",
            ),
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag of the version you have: 304 while it is current.",
            ),
            ETAG,
        ],
        responses={
            200: MatchDetailSerializer,
            304: OpenApiResponse(description="Not modified since the ETag given."),
            403: _403,
            404: _404,
        },
    )
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        entry = wants_entry(request, match)
        etag = http_cache.match_etag(match)
        if entry:
            etag = etag[:-1] + '-entry"'  # another body, another tag
        if http_cache.not_modified(request, etag):
            # A poller that has this version: no last events, no rendering.
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(render_match(match, entry=entry))
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=True)
        return response

    def get_object(self) -> Match:
        """The match of the URL, checked against the view's permissions: as GenericAPIView's,
        through selectors.match_get (built once) instead of a new queryset per request."""
        match_id = self._match_id()
        try:
            match = selectors.match_get(match_id=match_id)
        except Match.DoesNotExist:
            raise NotFound from None
        self.check_object_permissions(self.request, match)
        return match

    def _match_id(self) -> int:
        try:
            return int(self.kwargs[self.lookup_url_kwarg or self.lookup_field])
        except (TypeError, ValueError):
            raise NotFound from None

    @extend_schema(
        methods=["GET"],
        summary="The match's log (events and undos)",
        parameters=[MatchLogQuerySerializer],
        responses={200: MatchEventLogSerializer, 400: _400, 403: _403, 404: _404},
    )
    @extend_schema(
        methods=["POST"],
        summary="Enter one event",
        description="Applied through the rules engine. `expected_version` must be the match's "
        "current version (else 409 with the current match); an `idempotency_key` sent again "
        "returns the first answer without applying the event twice.",
        request=MatchEventWriteSerializer,
        responses={201: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"])
    def events(self, request: Request, pk: str | None = None) -> Response:
        if request.method == "GET":
            match = self.get_object()
            query = validated(MatchLogQuerySerializer, request.query_params)
            after, limit = query["after"], query["limit"]
            entries = list(selectors.match_events(match=match, after_seq=after)[: limit + 1])
            log = {"version": match.version, "events": entries[:limit], "next_after": None}
            if len(entries) > limit:
                log["next_after"] = entries[limit - 1].seq
            names = {"a": "—", "b": "—", **selectors.match_player_names(match=match)}
            context = {"match": match, "names": names}
            return Response(MatchEventLogSerializer(log, context=context).data)
        data = validated(MatchEventWriteSerializer, request.data)
        # The service checks who may write on the row it locks (a 404 for a match he may not
        # see, a 403 for one he may not score): the match is loaded once, under the lock.
        match_id = self._match_id()
        return _run(
            request,
            match_id,
            lambda: services.match_submit_event(
                match_id=match_id,
                event=data["event"],
                expected_version=data["expected_version"],
                **idempotency(request, data),
                actor=request.user,
                answer=answer_of(request),
            ),
        )

    @extend_schema(
        summary="Undo the last event still in force",
        description="Appends an undo entry (the version grows). The clock's time_expired can "
        "be undone by an organiser only (403 for others); an empty log is 422.",
        request=MatchUndoWriteSerializer,
        responses={201: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        data = validated(MatchUndoWriteSerializer, request.data)
        # The service checks who may write on the row it locks (a 404 for a match he may not
        # see, a 403 for one he may not score): the match is loaded once, under the lock.
        match_id = self._match_id()
        return _run(
            request,
            match_id,
            lambda: services.match_undo(
                match_id=match_id,
                expected_version=data.get("expected_version"),
                **idempotency(request, data),
                actor=request.user,
                answer=answer_of(request),
            ),
        )

    @extend_schema(
        summary="Start, pause (technical break), resume or adjust the net clock",
        description="Out of order (pause a paused clock, resume a running one...) is 409. "
        "`adjust` (organisers) sets the remaining time.",
        request=MatchClockWriteSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def clock(self, request: Request, pk: str | None = None) -> Response:
        data = validated(MatchClockWriteSerializer, request.data)
        # The service checks who may write on the row it locks (a 404 for a match he may not
        # see, a 403 for one he may not score): the match is loaded once, under the lock.
        match_id = self._match_id()
        return _run(
            request,
            match_id,
            lambda: services.match_clock(
                match_id=match_id,
                action=data["action"],
                remaining_seconds=data.get("remaining_seconds"),
                **idempotency(request, data),
                actor=request.user,
                answer=answer_of(request),
            ),
        )

    @extend_schema(
        summary="Call the judge (pauses the clock) or resolve the call",
        description="`call`: the players or the referee; the match is flagged on the table board. "
        "`resolve`: a referee of the tournament or an organiser; the clock is not resumed.",
        request=MatchJudgeWriteSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def judge(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        data = validated(MatchJudgeWriteSerializer, request.data)
        service = (
            services.match_judge_call if data["action"] == "call" else services.match_judge_resolve
        )
        return _run(
            request,
            match.pk,
            lambda: service(
                match_id=match.pk,
                note=data["note"],
                **idempotency(request, data),
                actor=request.user,
                answer=answer_of(request),
            ),
        )

    @extend_schema(
        summary="Walkover: the other player does not play (organisers)",
        request=MatchWalkoverWriteSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], permission_classes=[TournamentPermission])
    def walkover(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        data = validated(MatchWalkoverWriteSerializer, request.data)
        return _run(
            request,
            match.pk,
            lambda: services.match_walkover(
                match=match, winner_slot=data["winner"], reason=data["reason"], actor=request.user
            ),
        )

    @extend_schema(
        summary="Call the match to a table, or move it to another free table (organisers)",
        request=MatchTableWriteSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], permission_classes=[TournamentPermission])
    def table(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        number = validated(MatchTableWriteSerializer, request.data)["table"]
        return _run(
            request,
            match.pk,
            lambda: services.match_assign_table(match=match, table=number, actor=request.user),
        )

    @extend_schema(
        summary="Hold the match back from the table queue, or release it (organisers)",
        request=MatchHoldWriteSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], permission_classes=[TournamentPermission])
    def hold(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        held = validated(MatchHoldWriteSerializer, request.data)["held"]
        return _run(
            request,
            match.pk,
            lambda: services.match_hold(match=match, held=held, actor=request.user),
        )

    @extend_schema(
        summary="The match's audit log, newest first (organisers of its tournament)",
        parameters=AUDIT_PAGE_PARAMETERS,
        responses={200: AuditPageSerializer, 403: _403, 404: _404},
    )
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        if not can_manage_tournament(request.user, match.tournament):
            raise PermissionDenied
        entries = tournament_audit(tournament=match.tournament, match_id=match.pk)
        return audit_page(request, self, entries)


class _TournamentView(GenericAPIView[Tournament]):
    queryset = Tournament.objects.all()
    permission_classes = [TournamentPermission]
    lookup_url_kwarg = "tournament_pk"
    pagination_class = None


class TournamentTablesView(_TournamentView):
    """The table board of a tournament (read: anyone who may see it); set the tables (write:
    organisers)."""

    serializer_class = TableBoardSerializer

    @extend_schema(
        summary="Table board: tables with their matches, the queue, judge calls",
        responses={200: TableBoardSerializer, 403: _403, 404: _404},
    )
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_object()
        board = selectors.table_board(tournament=tournament)
        return Response(TableBoardSerializer(board).data)

    @extend_schema(
        summary="Have tables 1..count in use (free tables above go out of use)",
        request=TablesEnsureWriteSerializer,
        responses={200: TournamentTableSerializer(many=True), 400: _400, 403: _403, 404: _404},
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_object()
        body = TablesEnsureWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tables = services.tables_ensure(
            tournament=tournament, count=body.validated_data["count"], actor=request.user
        )
        return Response(TournamentTableSerializer(tables, many=True).data)


class TournamentTablesAssignView(_TournamentView):
    serializer_class = TableAssignmentsSerializer

    @extend_schema(
        summary="Send the next ready matches to every free table (organisers)",
        request=None,
        responses={200: TableAssignmentsSerializer, 403: _403, 404: _404},
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.get_object()
        assigned = services.table_assign_next(tournament=tournament, actor=request.user)
        return Response(TableAssignmentsSerializer({"assigned": assigned}).data)


class TournamentTableFreeView(_TournamentView):
    serializer_class = TableBoardMatchSerializer

    @extend_schema(
        summary="Free a table: its match, not started yet, goes back to the queue (organisers)",
        request=None,
        responses={
            200: TableBoardMatchSerializer,
            403: _403,
            404: _404,
            409: _409_PLAIN,
            422: _422,
        },
    )
    def post(self, request: Request, tournament_pk: int, number: int) -> Response:
        tournament = self.get_object()
        table = get_object_or_404(Table, tournament=tournament, number=number)
        match = services.table_free(table=table, actor=request.user)
        return Response(TableBoardMatchSerializer(selectors.match_get(match_id=match.pk)).data)
