"""Create a tournament from a file written by export_tournament.

The whole file is checked first; any problem is printed on a line of its own, nothing is
written and the command exits with status 1.
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.exchange import ImportError_, tournament_import

MAX_BYTES = 256 * 1024 * 1024  # a league's season of tournaments is a few megabytes


class _Refused(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys silently; a document saying two things is refused.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON allows")


def read_document(path: str) -> Any:
    """The parsed file, or CommandError with one line saying why it cannot be read."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            raise CommandError(f"cannot read {path}: larger than {MAX_BYTES // 2**20} MiB")
        with open(path, encoding="utf-8") as fh:
            return json.load(fh, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {path}: not UTF-8 text") from None
    except RecursionError:
        raise CommandError(f"cannot read {path}: JSON nested too deep") from None
    except ValueError as exc:  # JSONDecodeError, _Refused, a number too long to convert
        raise CommandError(f"cannot read {path}: {exc}") from None


class Command(BaseCommand):
    help = "Import a tournament exported with export_tournament (checked whole; all or nothing)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        document = read_document(path)
        try:
            tournament = tournament_import(document=document)
        except ImportError_ as exc:
            for problem in exc.problems:
                self.stderr.write(problem)
            count = len(exc.problems)
            raise CommandError(
                f"{path} was not imported ({count} problem{'s' if count != 1 else ''}); "
                "nothing was written"
            ) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported tournament {tournament.pk}: {tournament.name}")
        )
