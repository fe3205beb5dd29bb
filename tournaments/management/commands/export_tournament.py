"""Write one tournament, whole, to a JSON file (or standard output)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.exchange import tournament_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (players, registrations, bracket, events, results) to JSON."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, tournament_id: int, output: str | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"no tournament with id {tournament_id}")
        text = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
        if output:
            try:
                # Players' names and fees: readable by the owner only, whatever the umask.
                fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.fchmod(fd, 0o600)
                with open(fd, "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from None
        else:
            sys.stdout.write(text + "\n")
