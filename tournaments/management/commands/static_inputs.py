"""The fingerprint of what collectstatic would write: every file the static finders find (its
path and content), the settings that shape the output and the versions of what compresses it.
deploy/bin/install collects the static files only when a release's fingerprint differs from
the one the current release's files were collected for (the collection is minutes of brotli)."""

from __future__ import annotations

import hashlib
from importlib import metadata
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management.base import BaseCommand

# What collectstatic skips unless told otherwise (staticfiles' AppConfig.ignore_patterns).
IGNORED = ["CVS", ".*", "*~"]
SHAPING_SETTINGS = ("STATIC_URL", "STORAGES", "WHITENOISE_SKIP_COMPRESS_EXTENSIONS")
COMPRESSORS = ("django", "whitenoise", "brotli")


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "-"


def static_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in SHAPING_SETTINGS:
        digest.update(f"{name}={getattr(settings, name, None)!r}\n".encode())
    for distribution in COMPRESSORS:
        digest.update(f"{distribution}=={_version(distribution)}\n".encode())
    found: dict[str, str] = {}
    for finder in get_finders():
        for path, storage in finder.list(IGNORED):
            prefix = getattr(storage, "prefix", None)
            collected = f"{prefix}/{path}" if prefix else path
            found.setdefault(collected, storage.path(path))  # the first finder wins, as there
    for collected, source in sorted(found.items()):
        with open(source, "rb") as content:
            digest.update(
                f"{collected}\0".encode() + hashlib.file_digest(content, "sha256").digest()
            )
    return digest.hexdigest()


class Command(BaseCommand):
    help = "Print the fingerprint of the static files' inputs (deploy/bin/install)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(static_fingerprint())
