"""The last lines `make run` prints once everything is up: the logins, where they are kept,
and the addresses to open."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from config.celery import app

LOGINS = (
    ("organiser", "organiser-login.txt", "/panel/"),
    ("referee", "referee-login.txt", "/referee/"),
)


def saved_login(path: Path) -> tuple[str, str] | None:
    """(login, password) from a credentials file, if it still opens that account."""
    if not path.exists():
        return None
    username, _sep, password = path.read_text().strip().partition(":")
    user = get_user_model().objects.filter(username=username).first()
    if user is None or not user.check_password(password):
        return None
    return username, password


class Command(BaseCommand):
    help = "Wait until the web server and the worker answer, then print the logins and URLs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--wait", type=float, default=60.0, help="Seconds to wait at most.")

    def handle(self, *args: Any, url: str, wait: float, **options: Any) -> None:
        deadline = time.monotonic() + wait
        up = self._web_up(url, deadline) and self._worker_up(deadline)
        base = url.rstrip("/")
        var = Path(settings.VAR_DIR)
        lines = ["", "=" * 72]
        lines.append(
            f"Luza is running at {base}/" if up else f"Luza is starting at {base}/ (not up yet)"
        )
        for role, filename, path in LOGINS:
            found = saved_login(var / filename)
            if found is None:
                continue
            username, password = found
            lines.append(
                f"  {role.capitalize():<10} login {username:<10} password {password:<16} "
                f"→ {base}{path}"
            )
        lines.append(f"  Public pages           → {base}/")
        lines.append(f"  API docs               → {base}/api/v1/docs/")
        lines.append(f"  Logins are kept in {var}/organiser-login.txt and referee-login.txt")
        lines.append("  Ctrl-C stops the web server, the worker and beat.")
        lines.append("=" * 72)
        self.stdout.write("\n".join(lines))

    def _web_up(self, url: str, deadline: float) -> bool:
        if not url.startswith(("http://", "https://")):
            raise CommandError("--url must be an http(s) address.")
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{url.rstrip('/')}/healthz", timeout=2).close()  # noqa: S310 (http only, checked above)
                return True
            except urllib.error.HTTPError:
                return True  # it answers (a 503 names a service that is down: healthz says which)
            except OSError:
                time.sleep(0.5)
        return False

    def _worker_up(self, deadline: float) -> bool:
        while time.monotonic() < deadline:
            try:
                if app.control.ping(timeout=1.0):
                    return True
            except Exception:  # the broker is not there yet
                time.sleep(0.5)
        return False
