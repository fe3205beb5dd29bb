"""An integrator's API token: show whether a login has one, issue a new one, revoke it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.services.logins import api_token_info, api_token_issue, api_token_revoke


class Command(BaseCommand):
    help = (
        "Without an option: whether the login has an API token. --issue: a new token (the "
        "previous one stops working), printed once. --revoke: the token stops working."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--issue", action="store_true")
        action.add_argument("--revoke", action="store_true")
        parser.add_argument(
            "--quiet-key",
            action="store_true",
            help="with --issue, print the key alone (for scripts)",
        )

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise CommandError(f"No active login {username!r}.")
        if options["issue"]:
            key = api_token_issue(user=user, actor=None)
            if options["quiet_key"]:
                self.stdout.write(key)
                return
            self.stdout.write(self.style.SUCCESS(f"API token of {username}: {key}"))
            self.stdout.write(
                "Shown only now. Send it as the header  Authorization: Token <key>  (docs/api.md)."
            )
        elif options["revoke"]:
            revoked = api_token_revoke(user=user, actor=None)
            self.stdout.write(f"Token of {username} revoked." if revoked else "No token to revoke.")
        else:
            info = api_token_info(user=user)
            self.stdout.write(
                f"{username} has no API token."
                if info is None
                else f"{username} has a token {info.hint}… created {info.created:%Y-%m-%d %H:%M} UTC."
            )
