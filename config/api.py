"""API-wide behaviour: one error shape, and 503 instead of 500 when the database is away;
bodies too big or too deeply nested are the client's error (413, 400), never a 500."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils.translation import gettext as _
from rest_framework import pagination, parsers, status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, saying what is wrong in the user's language first (DRF's own text is
    English only); a body nested deeper than Python's decoder goes is malformed too, not a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except ParseError as exc:
            raise ParseError(f"{ParseError.default_detail} ({exc.detail})") from None
        except RecursionError:
            raise ParseError(f"{ParseError.default_detail} (JSON nested too deeply)") from None


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """DRF's limit/offset pages, with both numbers bounded: a limit of 10**30 would otherwise
    reach the database as an out-of-range integer."""

    max_limit = 1000
    max_offset = 10**9  # far past any list; such a page is simply empty

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), self.max_offset)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        # Django refuses the body (DATA_UPLOAD_MAX_MEMORY_SIZE); say so in the API's shape.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return Response(
            {
                "code": "too_large",
                "message": _("The request body is too large (at most %(kib)s KiB).")
                % {"kib": limit},
            },
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is unreachable: the client may retry with the same idempotency key.
        logger.warning("database unavailable: %s", exc)
        return Response(
            {"code": "unavailable", "message": _("The database is unavailable; try again.")},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "2"},
        )
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
        return Response(
            {"code": "unavailable", "message": _("The database is unavailable; try again.")},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "2"},
        )
    return drf_exception_handler(exc, context)
