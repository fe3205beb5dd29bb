"""Every refused login is one log line with the client's address and the username tried.

Two sources, whatever limits the attempts: Django's `user_login_failed` signal (a wrong
password, from any login form or authentication backend) and a refusal answered on the login
page itself (429 or 403 from a rate limiter). The address is the client's as nginx saw it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from config.client_ip import client_ip

logger = logging.getLogger("luza.auth")

_USERNAME_LIMIT = 150


def client_address(request: HttpRequest | None) -> str:
    """The client's address as the login limit sees it (config.client_ip)."""
    return "-" if request is None else client_ip(request)


def _username(value: Any) -> str:
    return repr(str(value or "")[:_USERNAME_LIMIT])


@receiver(user_login_failed, dispatch_uid="luza-login-failed-log")
def _log_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kw: Any) -> None:
    logger.warning(
        "login failed: address=%s username=%s",
        client_address(request),
        _username(credentials.get("username")),
    )


class LoginRefusalLog:
    """A login POST refused before the password was checked (too many attempts)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self._login_path: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "POST" and response.status_code in (403, 429):
            if self._login_path is None:
                self._login_path = reverse("login")
            if request.path == self._login_path:
                logger.warning(
                    "login refused (%s): address=%s username=%s",
                    response.status_code,
                    client_address(request),
                    _username(request.POST.get("username")),
                )
        return response
