"""API-wide behaviour: the one error body, the schema that says so, and safe answers to the
database's refusals.

Every error of the API is ``{"code", "message", "params"}`` (``config.errors``), made here and
nowhere else: the services' ``ApiError``s, DRF's and Django's refusals (invalid input with
``"fields": {"name": [{"code", "message"}]}``, 401, 403, 404, 405, 415, 429), a body too big
(413), a value the database cannot hold (400, never a 503), a clash with a unique value
(409 "conflict") and the database being away (503).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, DataError, IntegrityError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import ApiError, error_body
from config.throttle import wait_message

logger = logging.getLogger(__name__)


# --- the one error body ------------------------------------------------------------------------


def _flatten(detail: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted field path, ErrorDetail) pairs of a DRF validation detail: nested bodies give
    "player.name", list items "place_shares.3"; a serializer's own errors keep their key."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = str(key)
            if name == "non_field_errors" and prefix:
                yield from _flatten(value, prefix)
            else:
                yield from _flatten(value, f"{prefix}.{name}" if prefix else name)
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            if isinstance(item, dict | list):  # the errors of a list's items, by position
                yield from _flatten(item, f"{prefix}.{index}" if prefix else str(index))
            else:
                yield from _flatten(item, prefix)
    else:
        yield prefix or "non_field_errors", detail


def validation_body(detail: Any) -> dict[str, Any]:
    fields: dict[str, list[dict[str, str]]] = {}
    for name, item in _flatten(detail):
        code = getattr(item, "code", None) or "invalid"
        fields.setdefault(name, []).append({"code": str(code), "message": str(item)})
    first_name, first = next(iter(fields.items()), ("", [{"message": _("Invalid input.")}]))
    message = first[0]["message"]
    if first_name and first_name != "non_field_errors":
        message = f"{first_name}: {message}"
    body = error_body("invalid", message, {"field": first_name} if fields else {})
    body["fields"] = fields
    return body


def _wait(exc: exceptions.Throttled) -> float | None:
    """The seconds until the next request is let through (Throttled sets it in __init__; the
    stubs do not declare it)."""
    wait: float | None = getattr(exc, "wait", None)
    return wait


def _api_exception_body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        return validation_body(exc.detail)
    detail = exc.detail
    while isinstance(detail, list | dict) and detail:
        detail = detail[0] if isinstance(detail, list) else next(iter(detail.values()))
    code = getattr(detail, "code", None) or exc.default_code
    params: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and _wait(exc) is not None:
        params["wait"] = int((_wait(exc) or 0) + 0.999)
    return error_body(str(code), detail, params)


def _database_unavailable() -> Response:
    return Response(
        error_body("unavailable", _("The database is unavailable; try again.")),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": "2"},
    )


def _data_error(exc: DataError) -> Response:
    """A value the database cannot hold (numeric overflow, text too long) that validation let
    through: the request is at fault, not the server, so a 400 that a client does not retry.
    The column is named where the database says it."""
    diag = getattr(getattr(exc, "__cause__", None), "diag", None)
    column = getattr(diag, "column_name", None) or ""
    logger.error("a value reached the database out of range: %s", exc)
    params = {"field": column} if column else {}
    message = (
        _("The value of “%(field)s” is too large to be stored.") % {"field": column}
        if column
        else _("A value of the request is too large to be stored.")
    )
    return Response(error_body("out_of_range", message, params), status=400)


def not_found_response() -> Response:
    """The one answer of the API to anything that does not exist for the user: an unknown id
    and a private tournament (its matches, tables, registrations) he may not see alike, byte
    for byte, so that guessing ids confirms nothing. Whatever text a view gave its 404 (Django's
    "No Tournament matches the given query.") is dropped: it would tell the two apart."""
    return Response(error_body("not_found", _("Not found.")), status=status.HTTP_404_NOT_FOUND)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApiError):
        if exc.status == status.HTTP_404_NOT_FOUND:
            # What one may not see answers exactly as what does not exist.
            return not_found_response()
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, Http404 | exceptions.NotFound):
        return not_found_response()
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(_wait(exc) or 1))
        return Response(
            error_body("throttled", wait_message(wait), {"wait": wait}),
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(wait)},
        )
    if isinstance(exc, RequestDataTooBig):
        # Django refuses the body (DATA_UPLOAD_MAX_MEMORY_SIZE); say so in the API's shape.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return Response(
            error_body(
                "too_large",
                _("The request body is too large (at most %(kib)s KiB).") % {"kib": limit},
                {"max_kib": limit},
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, DataError):
        return _data_error(exc)
    if isinstance(exc, IntegrityError):
        # Two writes raced for one unique value (a login, a place): the request clashes with
        # what exists, a 409 with a code; a 503 would have the client retry it forever.
        logger.warning("integrity error answered 409: %s", exc)
        return Response(
            error_body(
                "conflict", _("This clashes with something that already exists; reload and check.")
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is unreachable: the client may retry with the same idempotency key.
        logger.warning("database unavailable: %s", exc)
        return _database_unavailable()
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
        return _database_unavailable()
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        response.data = _api_exception_body(exc)
        if isinstance(exc, exceptions.AuthenticationFailed):
            # A token that is not valid: 401 with the scheme to use. (DRF says 403, since the
            # session, first among the schemes, has no challenge; an anonymous write stays 403.)
            response.status_code = status.HTTP_401_UNAUTHORIZED
            response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> Any:
    """handler404: under /api/ a path no route takes (an id like 0.5) is the JSON 404 of the
    API; elsewhere Django's own page."""
    if request.path.startswith("/api/"):
        body = error_body("not_found", _("Not found."))
        return JsonResponse(body, status=404, json_dumps_params={"ensure_ascii": False})
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


class JsonNotFoundMiddleware:
    """Under /api/ every 404 is the API's JSON body, in development too: with DEBUG on, Django
    answers a path no route takes with its technical HTML page and never asks handler404.
    Listed before CommonMiddleware, so its slash redirects stand."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return cast(HttpResponse, not_found(request))
        return response
