"""Create the first superuser if it is missing; an existing one keeps its password."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.login_names import LoginRefused, LoginTaken
from tournaments.management.commands._logins import report
from tournaments.services.logins import login_ensure


class Command(BaseCommand):
    help = (
        "Create a superuser login (a random password, shown once) or make an existing login a "
        "superuser without touching its password. Safe to run again."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", required=True, help="the superuser's login")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        try:
            ensured = login_ensure(username=username.strip(), role="superuser")
        except (LoginTaken, LoginRefused) as err:
            raise CommandError(str(err)) from None
        report(self, "Superuser", ensured)
