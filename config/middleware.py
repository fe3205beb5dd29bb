"""Pages speak Russian unless the visitor picked another language with the switch."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


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
