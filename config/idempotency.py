"""One idempotency mechanism for every write of the API.

A POST, PUT, PATCH or DELETE under /api/v1/ sent with an ``Idempotency-Key`` header is run in
one transaction with the record of its answer. Sent again with the same key, by the same
login, the same request (method, path, body) is answered with the first answer (and the
``Idempotent-Replayed: true`` header) without being run again; another request under that key
is 422 ``idempotency_key_reused``. Only answers that kept something (2xx) are stored: a
refused request changed nothing and may be corrected and sent again under its key.

Match scoring writes (events, undo, clock, judge) keep the key in their own record, written in
the same statement as the ball (``matches.services``, the hot path); they take the header, or
``idempotency_key`` in the body as before, and compare the same fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from config.errors import error_body
from matches.models import ApiWriteRecord

HEADER = "Idempotency-Key"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Printable ASCII without spaces, as a UUID or any client's own scheme gives.
KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,100}$")
# Answers larger than this are not kept (none of the API's writes comes near it).
MAX_STORED = 1024 * 1024
REPLAYED_HEADER = "Idempotent-Replayed"


def request_fingerprint(*, method: str, path: str, body: bytes, user_id: int | None) -> str:
    """sha256 of what makes a request the same one: its method, path (with the query), body
    and acting login. A JSON body counts by its content, not its spacing or key order."""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, ensure_ascii=False).encode()
    except ValueError:
        canonical = body
    digest = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), str(user_id or "").encode()):
        digest.update(part + b"\n")
    digest.update(canonical)
    return digest.hexdigest()


def reused_key_body() -> dict[str, Any]:
    return error_body(
        "idempotency_key_reused",
        _("This idempotency key was already used for another request."),
        {"header": HEADER},
    )


def _refusal(status: int, body: dict[str, Any]) -> HttpResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _acting_user_id(request: HttpRequest) -> int | None:
    """The login the request acts as: its token's (the API's first choice for integrators)
    or its session's. An invalid token is left for the view to refuse (401)."""
    from rest_framework.exceptions import APIException

    from config.drf import TokenAuthentication

    try:
        found = TokenAuthentication().authenticate(request)
    except APIException:
        return None
    if found is not None:
        return int(found[0].pk)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return int(user.pk)
    return None


def inline_key(request: Any) -> str | None:
    """The key a scoring view passes to its service: the header, if sent."""
    value = request.headers.get(HEADER)
    return value if value else None


def _is_inline(view_func: Any, method: str) -> bool:
    """Views that keep their keys themselves, in the write's own statement (matches)."""
    cls = getattr(view_func, "cls", None)
    inline = getattr(cls, "inline_idempotency_actions", ())
    actions = getattr(view_func, "actions", None) or {}
    return bool(inline) and actions.get(method.lower()) in inline


def _replay(record: ApiWriteRecord) -> HttpResponse:
    response = HttpResponse(
        record.content, status=record.status_code, content_type=record.content_type
    )
    response[REPLAYED_HEADER] = "true"
    return response


class IdempotencyMiddleware:
    """Runs a keyed write of the API with its recorded answer (see the module's text)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
    ) -> HttpResponse | None:
        key = request.headers.get(HEADER)
        if (
            key is None
            or request.method not in WRITE_METHODS
            or not request.path.startswith("/api/v1/")
        ):
            return None
        if not KEY_PATTERN.match(key):
            message = _("The Idempotency-Key header must be 1 to 100 printable characters.")
            body = error_body("invalid", message, {"field": HEADER})
            body["fields"] = {HEADER: [{"code": "invalid", "message": message}]}
            return _refusal(400, body)
        if _is_inline(view_func, request.method or ""):
            return None
        user_id = _acting_user_id(request)
        if user_id is None:
            return None  # anonymous writes are refused by the view
        try:
            body_bytes = request.body
        except RequestDataTooBig:
            return None  # the view answers 413
        fingerprint = request_fingerprint(
            method=request.method or "",
            path=request.get_full_path(),
            body=body_bytes,
            user_id=user_id,
        )
        return self._run(request, view_func, view_args, view_kwargs, key, user_id, fingerprint)

    def _run(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
        key: str,
        user_id: int,
        fingerprint: str,
    ) -> HttpResponse:
        with transaction.atomic():
            # The claim: a second request under the key waits here until the first commits
            # (the unique index), then finds its record.
            record = ApiWriteRecord(
                user_id=user_id,
                key=key,
                request_hash=fingerprint,
                status_code=0,
                content="",
                content_type="",
            )
            try:
                with transaction.atomic():
                    record.save()
            except IntegrityError:
                earlier = ApiWriteRecord.objects.filter(user_id=user_id, key=key).first()
                if earlier is None:  # pruned meanwhile: simply refuse, a retry runs it
                    return _refusal(409, error_body("conflict", _("Try again.")))
                if earlier.request_hash != fingerprint:
                    return _refusal(422, reused_key_body())
                return _replay(earlier)
            response = view_func(request, *view_args, **view_kwargs)
            render = getattr(response, "render", None)
            if callable(render):
                response = render()
            connection = transaction.get_connection()
            kept = (
                200 <= response.status_code < 300
                and not connection.needs_rollback
                and not getattr(response, "streaming", False)
                and len(response.content) <= MAX_STORED
            )
            if not kept:
                # A refused write left nothing (DRF rolled it back); its claim goes too, so
                # the key is free for the corrected request. What the view chose to keep on
                # a refusal (a failed login's count) stays.
                if not connection.needs_rollback:
                    record.delete()
                return response
            record.status_code = response.status_code
            record.content = response.content.decode("utf-8", errors="replace")
            record.content_type = response.get("Content-Type", "application/json")
            record.save(update_fields=["status_code", "content", "content_type"])
        return response
