"""Our variants of DRF's parser and paginator.

Kept apart from config/api.py on purpose: DRF resolves these dotted paths while its views module
is being imported, so this module must not import rest_framework.views itself.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import authentication, pagination, parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, saying what is wrong in the user's language first (DRF's own text is
    English only); a body nested deeper than Python's decoder goes is malformed too, not a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except ParseError as exc:
            raise ParseError(f"{ParseError.default_detail} ({exc.detail})") from None
        except RecursionError:
            raise ParseError(_("The JSON body is nested too deeply.")) from None


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """DRF's limit/offset pages, with both numbers bounded: a limit of 10**30 would otherwise
    reach the database as an out-of-range integer."""

    max_limit = 1000
    max_offset = 10**9  # far past any list; such a page is simply empty

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), self.max_offset)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token, sent as ``Authorization: Bearer <key>`` (what OpenAPI's http/bearer scheme
    and every client generator send) or, as before, ``Authorization: Token <key>``."""

    keywords = ("Bearer", "Token")

    def authenticate(self, request: Any) -> Any:
        header = authentication.get_authorization_header(request).split()
        if not header:
            return None
        for keyword in self.keywords:
            if header[0].lower() == keyword.lower().encode():
                self.keyword = keyword
                return super().authenticate(request)
        return None

    def authenticate_header(self, request: Any) -> str:
        return "Bearer"
