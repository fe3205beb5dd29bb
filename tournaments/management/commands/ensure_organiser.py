"""Create the organiser login if it is missing; an existing one keeps its password."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.login_names import LoginRefused, LoginTaken
from tournaments.management.commands._logins import report
from tournaments.services.logins import login_ensure


class Command(BaseCommand):
    help = (
        "Create an organiser login (a random password, shown once) or make an existing login "
        "an organiser without touching its password. Safe to run again."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", required=True, help="the organiser's login")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        try:
            ensured = login_ensure(username=username.strip(), role="organiser")
        except (LoginTaken, LoginRefused) as err:
            raise CommandError(str(err)) from None
        report(self, "Organiser", ensured)
