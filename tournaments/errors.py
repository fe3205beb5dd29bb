"""The one error type of the tournaments services.

Services raise ``TournamentError`` with a stable ``code`` and a message already translated into
the active language; the API turns it into ``{"code", "message"}`` with ``status``.
"""

from __future__ import annotations

from typing import Any

# 400: the request itself is malformed or names impossible settings.
BAD_REQUEST = 400
# 403: the user may not do this (an organiser of someone else's player, a superuser's task).
FORBIDDEN = 403
# 409: the request conflicts with the current state (wrong status, already done, taken).
CONFLICT = 409
# 422: well-formed, but the tournament's rules forbid it (unpaid fees, too few players).
UNPROCESSABLE = 422


class TournamentError(Exception):
    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = CONFLICT,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.status = status
        self.params: dict[str, Any] = params or {}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            data["params"] = self.params
        return data

    def __repr__(self) -> str:
        return f"TournamentError({self.code!r}, {self.message!r})"
