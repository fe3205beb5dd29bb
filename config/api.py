"""API-wide behaviour: one error shape, and 503 instead of 500 when the database is away;
bodies too big or too deeply nested are the client's error (413, 400), never a 500."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import NotFound, Throttled
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


TRANSPORT_ERRORS = {
    "413": "The body is larger than the server accepts.",
    "415": "The body's content type is not JSON, form or multipart data.",
}
_ERROR_BODY = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "detail": {"type": "string"},
    },
}


def document_transport_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: any operation with a body can be answered 413 or 415 before its
    view runs, so the schema says so (clients and schemathesis rely on the listed codes)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            for code, description in TRANSPORT_ERRORS.items():
                operation["responses"].setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": _ERROR_BODY}},
                    },
                )
    return result


def not_found_response() -> Response:
    """The one answer of the API to anything that does not exist for the user: an unknown id
    and a private tournament (its matches, tables, registrations) he may not see alike, byte
    for byte, so that guessing ids confirms nothing. Whatever text a view gave its 404 (Django's
    "No Tournament matches the given query.") is dropped: it would tell the two apart."""
    return Response(
        {"code": "not_found", "message": _("Not found.")}, status=status.HTTP_404_NOT_FOUND
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404 | NotFound):
        return not_found_response()
    if isinstance(exc, Throttled):
        from config.throttle import wait_message

        wait = max(1, int(exc.wait or 1))
        return Response(
            {"code": "throttled", "message": wait_message(wait), "params": {"wait": wait}},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(wait)},
        )
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
