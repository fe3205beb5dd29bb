"""Shared by ensure_organiser and ensure_superuser: one output for a login made or kept."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments.services.logins import EnsuredLogin


def report(command: BaseCommand, role: str, ensured: EnsuredLogin) -> None:
    username = ensured.user.get_username()
    if ensured.password is None:
        command.stdout.write(
            f"{role} login {username!r} exists; its password is unchanged "
            f"(manage.py changepassword {username} sets a new one)."
        )
        return
    command.stdout.write(
        command.style.SUCCESS(f"{role} login: {username}   password: {ensured.password}")
    )
    command.stdout.write("The password is shown only now and stored only as a hash: note it.")
