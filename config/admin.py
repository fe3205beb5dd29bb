"""The Django admin is for superusers only: organisers do everything in the panel, and a staff
flag given to an organiser (as older set-ups did) opens nothing here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig


class SuperuserAdminSite(admin.AdminSite):
    def has_permission(self, request: Any) -> bool:
        user = request.user
        return bool(user.is_active and user.is_superuser)


class SuperuserAdminConfig(AdminConfig):
    default_site = "config.admin.SuperuserAdminSite"
