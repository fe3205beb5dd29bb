"""API-wide behaviour: one error shape, and 503 instead of 500 when the database is away."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
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
