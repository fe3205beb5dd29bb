"""Login and logout pages. Failed attempts are limited for every login form, the admin's too,
by django-axes (config/login_limit.py)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    pass
