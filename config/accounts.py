"""Login with a limit on failed attempts (per client address and per username)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

WINDOW_SECONDS = 15 * 60


def _keys(request: HttpRequest) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "unknown")
    username = (request.POST.get("username") or "").strip().lower()[:150]
    keys = [f"login-fail:ip:{address}"]
    if username:
        keys.append(f"login-fail:user:{username}")
    return keys


def _blocked(request: HttpRequest) -> bool:
    return any((cache.get(key) or 0) >= settings.LOGIN_RATE_LIMIT for key in _keys(request))


def _record_failure(request: HttpRequest) -> None:
    for key in _keys(request):
        if cache.add(key, 1, WINDOW_SECONDS):
            continue
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, WINDOW_SECONDS)


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _blocked(request):
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _("Too many failed attempts. Try again in 15 minutes."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        response = super().post(request, *args, **kwargs)
        if response.status_code != 302:
            _record_failure(request)
        return response


class LogoutView(auth_views.LogoutView):
    pass
