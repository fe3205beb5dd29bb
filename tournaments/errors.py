"""The error type of the tournaments services.

Services raise ``TournamentError`` with a stable ``code`` and a message already translated into
the active language and formatted; the API's one exception handler turns it into
``{"code", "message", "params"}`` with ``status`` (see ``config.errors``).
"""

from __future__ import annotations

from typing import Any

from config.errors import BAD_REQUEST, CONFLICT, UNPROCESSABLE, ApiError

# 403: the user may not do this (an organiser of someone else's player, a superuser's task).
FORBIDDEN = 403

__all__ = ["BAD_REQUEST", "CONFLICT", "FORBIDDEN", "UNPROCESSABLE", "TournamentError"]


class TournamentError(ApiError):
    preformatted = True
    message: str  # formatted by the service, in the active language (see __init__)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = str(self.message)

    def __str__(self) -> str:
        return str(self.message)

    def to_dict(self) -> dict[str, object]:
        return self.as_dict()
