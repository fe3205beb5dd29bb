"""Create a tournament from a file written by export_tournament."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.exchange import ImportError_, tournament_import


class Command(BaseCommand):
    help = "Import a tournament exported with export_tournament."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        try:
            with open(path, encoding="utf-8") as fh:
                document = json.load(fh)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        try:
            tournament = tournament_import(document=document)
        except ImportError_ as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported tournament {tournament.pk}: {tournament.name}")
        )
