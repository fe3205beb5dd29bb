"""`make run` talks like a product: the worker says nothing about a sweep that found nothing,
but does log one that expired a clock; the banner prints the logins and where they are kept."""

from __future__ import annotations

import io
import logging

import pytest

from matches.tasks import QuietHousekeeping
from tournaments.management.commands import run_banner


def record(name: str, args: object) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, "Task %(name)s", (args,), None)


def test_an_idle_sweep_is_not_logged_but_real_work_is():
    quiet = QuietHousekeeping()
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)
    received = record("celery.worker.strategy", {"name": "matches.tasks.clock_sweep", "id": "x"})
    idle = record("celery.app.trace", {"name": "matches.tasks.clock_sweep", "return_value": "0"})
    busy = record("celery.app.trace", {"name": "matches.tasks.clock_sweep", "return_value": "2"})
    expire = record(
        "celery.app.trace", {"name": "matches.tasks.clock_expire", "return_value": "True"}
    )
    assert not quiet.filter(received) and not quiet.filter(idle)
    assert quiet.filter(busy) and quiet.filter(expire)


def test_the_filter_is_on_the_worker_s_loggers():
    for name in ("celery.app.trace", "celery.worker.strategy"):
        assert any(isinstance(f, QuietHousekeeping) for f in logging.getLogger(name).filters)


@pytest.mark.django_db
def test_the_banner_prints_the_logins_and_the_addresses(settings, tmp_path, monkeypatch):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path
    get_user_model().objects.create_user(username="organiser", password="pw-org")
    get_user_model().objects.create_user(username="referee", password="pw-ref")
    (tmp_path / "organiser-login.txt").write_text("organiser:pw-org\n")
    (tmp_path / "referee-login.txt").write_text("referee:pw-ref\n")
    monkeypatch.setattr(run_banner.Command, "_web_up", lambda self, url, deadline: True)
    monkeypatch.setattr(run_banner.Command, "_worker_up", lambda self, deadline: True)
    out = io.StringIO()
    call_command("run_banner", url="http://127.0.0.1:8000", stdout=out)
    text = out.getvalue()
    assert "Luza is running at http://127.0.0.1:8000/" in text
    assert "organiser" in text and "pw-org" in text and "http://127.0.0.1:8000/panel/" in text
    assert "referee" in text and "pw-ref" in text and "http://127.0.0.1:8000/referee/" in text
    assert str(tmp_path / "organiser-login.txt") in text


def test_a_pdf_logs_nothing_at_info():
    """WeasyPrint and fontTools narrate every PDF at INFO (seven lines a diploma); the
    process's log keeps their warnings only."""
    from tournaments.diplomas import html_to_pdf

    seen: list[logging.LogRecord] = []
    catcher = logging.Handler(level=logging.DEBUG)
    catcher.emit = seen.append  # type: ignore[method-assign]
    logging.getLogger().addHandler(catcher)
    try:
        assert html_to_pdf("<p>Диплом</p>").startswith(b"%PDF")
    finally:
        logging.getLogger().removeHandler(catcher)
    assert [r.getMessage() for r in seen if r.name.startswith(("weasyprint", "fontTools"))] == []
