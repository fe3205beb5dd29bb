"""Pages speak Russian unless the visitor picked another language with the switch."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class PagesInRussianByDefault:
    """A club's phones and TVs are often set to English; the pages are Russian all the same
    until someone presses EN (the language cookie). The API keeps Accept-Language, so that an
    integrator's client gets its error messages in the language it asks for."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)


class ApiInUtc:
    """The API answers its date-times in UTC ("2026-12-05T07:00:00Z"), whatever the server's
    zone: a client converts them to its own. Pages keep the tournament's local time. (A
    date-time the API reads must carry its offset: config.serializers.MomentField.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        with timezone.override(dt.UTC):
            return self.get_response(request)
