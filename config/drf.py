"""Our variants of DRF's parser and paginator.

Kept apart from config/api.py on purpose: DRF resolves these dotted paths while its views module
is being imported, so this module must not import rest_framework.views itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, pagination, parsers, serializers
from rest_framework.exceptions import AuthenticationFailed, ParseError, ValidationError


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
    """DRF's limit/offset pages, with both numbers checked (a limit that is not a whole number
    from 1 is a 400, not silently the default) and bounded: a limit of 10**30 would otherwise
    reach the database as an out-of-range integer."""

    max_limit = 1000
    max_offset = 10**9  # far past any list; such a page is simply empty

    def _number(
        self, request: Any, name: str, minimum: int, maximum: int | None = None
    ) -> int | None:
        raw = request.query_params.get(name)
        if raw is None:
            return None
        field = serializers.IntegerField(min_value=minimum, max_value=maximum)
        try:
            return int(field.run_validation(raw))
        except ValidationError as exc:
            raise ValidationError({name: exc.detail}) from None

    def get_limit(self, request: Any) -> int | None:
        # Past max_limit is a 400, as the schema's maximum says (not silently a smaller page).
        limit = self._number(request, self.limit_query_param, 1, self.max_limit)
        return self.default_limit if limit is None else limit

    def get_offset(self, request: Any) -> int:
        offset = self._number(request, self.offset_query_param, 0)
        return 0 if offset is None else min(offset, self.max_offset)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {self.limit_query_param: (1, self.max_limit), self.offset_query_param: (0, None)}
        for parameter in parameters:
            low, high = bounds.get(parameter["name"], (None, None))
            if low is not None:
                parameter["schema"]["minimum"] = low
            if high is not None:
                parameter["schema"]["maximum"] = high
        return parameters


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

    def authenticate_credentials(self, key: str) -> Any:
        user, token = super().authenticate_credentials(key)
        if token_expires(token.created) <= timezone.now():
            raise AuthenticationFailed(
                _("The token has expired: ask for a new one."), code="token_expired"
            )
        return user, token

    def authenticate_header(self, request: Any) -> str:
        return "Bearer"


def token_expires(created: datetime) -> datetime:
    """When a token issued at `created` stops working (LUZA_API_TOKEN_DAYS)."""
    return created + timedelta(days=settings.LUZA_API_TOKEN_DAYS)
