"""Create (or reuse) the organiser account for a first look, and print its login."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from tournaments.roles import roles_ensure


class Command(BaseCommand):
    help = "Create or reuse the organiser account and print its login."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", default="organiser")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        credentials = Path(settings.VAR_DIR) / "organiser-login.txt"
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        password = None
        if user is not None and credentials.exists():
            saved_user, _, saved_password = credentials.read_text().strip().partition(":")
            if saved_user == username and user.check_password(saved_password):
                password = saved_password
        if password is None:
            password = secrets.token_urlsafe(9)
            if user is None:
                user = User.objects.create_user(username=username, password=password)
            else:
                user.set_password(password)
                user.save(update_fields=["password"])
            credentials.write_text(f"{username}:{password}\n")
            credentials.chmod(0o600)
        roles_ensure()
        user.groups.add(Group.objects.get(name="organiser"))
        self.stdout.write(self.style.SUCCESS(f"Organiser login: {username}   password: {password}"))
