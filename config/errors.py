"""The one error type of the services, and the one body every error of the API has.

A service refuses with an ``ApiError`` subclass (``MatchError``, ``TournamentError``): a stable
``code``, a message (translated when the body is rendered, so in the requesting user's
language), its ``params`` and the HTTP ``status``. ``config.api.exception_handler`` turns it,
and every error DRF or Django raises, into ``{"code", "message", "params"}``; invalid input adds
``"fields": {"name": [{"code", "message"}]}``.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise

# 400: the request itself is malformed or names impossible settings.
BAD_REQUEST = 400
# 409: the request conflicts with the current state (wrong status, already done, taken).
CONFLICT = 409
# 422: well-formed, but the rules forbid it (unpaid fees, too few players, impossible event).
UNPROCESSABLE = 422


class ApiError(Exception):
    """A refused request: a stable code, a translatable message and its params.

    ``message`` is a (lazy) template filled with ``params`` and ``display`` when rendered;
    a subclass whose services format their sentences themselves sets ``preformatted``."""

    preformatted = False

    def __init__(
        self,
        code: str,
        message: Promise | str,
        *,
        status: int = CONFLICT,
        params: dict[str, Any] | None = None,
        display: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status
        self.params: dict[str, Any] = params or {}
        # Values for the sentence only, e.g. a status's translated label instead of its code.
        self.display: dict[str, Any] = display or {}
        # More top-level keys of the body, e.g. the current match with a 409 of a match write.
        self.extra: dict[str, Any] = {}

    def render_message(self) -> str:
        text = str(self.message)
        if self.preformatted:
            return text
        return text % {**self.params, **self.display}

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.render_message(),
            "params": self.params,
            **self.extra,
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self.message)!r})"


def error_body(code: str, message: Any, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": str(message), "params": params or {}}
