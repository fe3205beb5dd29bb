"""The limit on failed logins (django-axes), for every login form: the site's and the admin's.

Failures are counted per client address *and* username together (AXES_LOCKOUT_PARAMETERS), so
an attacker locks himself out of the names he tries, not a whole club behind one address out of
every login. The username is counted as the login form reads it: NFKC-folded (the fullwidth
"ｏｒｇ２" is "org2", as Django's form makes it) and case-folded, so that another spelling of the
same name gets no fresh attempts.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from config.errors import error_body
from config.login_names import fold_login, login_find


def normalised_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    """AXES_USERNAME_CALLABLE: the username a failure is counted under."""
    # Axes puts its defaults on Django's settings when it loads (axes.conf); the stubs know
    # only the settings module's own.
    field = str(settings.AXES_USERNAME_FORM_FIELD)  # type: ignore[misc]
    raw = (credentials or {}).get(field)
    if raw is None and request is not None:
        raw = request.POST.get(field)
    return fold_login(raw)


class LoginLimitBackend(AxesStandaloneBackend):  # type: ignore[misc]  # axes has no types
    """Axes' check before the password is: a login that comes with no request (a management
    command, the test client's login()) is not a client of the web and is not counted."""

    def authenticate(
        self, request: Any = None, username: Any = None, password: Any = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class FoldedLoginBackend(ModelBackend):
    """Django's password check, with the login found under the one folding of names
    (config.login_names): `ORGB`, `ｏｒｇｂ` and ` orgb ` log in as `orgb`, as no look-alike of
    it can be created. Every authentication (the login page, the admin's) goes through it."""

    def authenticate(
        self, request: Any, username: Any = None, password: Any = None, **kwargs: Any
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = login_find(username)
        if user is None:
            # The hasher runs anyway: an unknown name answers as slowly as a wrong password.
            get_user_model()().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def minutes_to_wait(request: HttpRequest | None = None) -> int:
    cool_off = get_cool_off(request) or timedelta(0)
    return max(1, math.ceil(cool_off.total_seconds() / 60))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page again, saying how long to wait (429). Every try
    during the lock starts the wait again (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT), so
    the wait is the whole cool-off from now."""
    minutes = minutes_to_wait(request)
    if request.path.startswith("/api/"):
        # The API's token exchange: its one error body, not the login page.
        message = _(
            "Too many tries from your address or for this name. Try again in %(minutes)s min."
        ) % {"minutes": minutes}
        answer = JsonResponse(
            error_body("throttled", message, {"wait": minutes * 60}),
            status=429,
            json_dumps_params={"ensure_ascii": False},
        )
        answer["Retry-After"] = str(minutes * 60)
        return answer
    response = render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "login_path": request.path},
        status=settings.AXES_HTTP_RESPONSE_CODE,  # type: ignore[misc]  # axes' default
    )
    response["Retry-After"] = str(minutes * 60)
    return response
