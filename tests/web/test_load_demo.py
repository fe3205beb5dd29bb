"""`manage.py load_demo`: the demo a newcomer sees after `make run`."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from matches.models import Match
from tournaments.diplomas import diploma_entries
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_demo_loads_once_with_a_running_and_a_finished_tournament(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    call_command("load_demo", stdout=io.StringIO())

    # One tournament of each coloured-cue-ball game: a semifinal played, one on a table.
    for discipline in ("combined_pyramid", "dynamic_pyramid", "classic_pyramid"):
        games = Tournament.objects.get(discipline=discipline)
        played = Match.objects.filter(tournament=games, status=Match.Status.FINISHED)
        assert played.count() == 1 and played.get().state["finished"]
        assert (
            Match.objects.filter(tournament=games, table__isnull=False)
            .exclude(status=Match.Status.FINISHED)
            .exists()
        )

    running = Tournament.objects.get(name="Кубок клуба «Луза»")
    finished = Tournament.objects.get(name="Осенний турнир «Лузы»")
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser in running.organisers.all() and organiser in finished.organisers.all()
    referee = get_user_model().objects.get(username="referee")
    assert referee in running.referees.all()

    assert running.status == Tournament.Status.RUNNING
    assert running.format == "double_to_single" and running.playoff_size == 16
    assert running.registrations.filter(paid=True).count() == 32
    ratings = [r.rating_at_entry for r in running.registrations.all()]
    assert min(ratings) >= 700 and max(ratings) <= 1200
    real = Match.objects.filter(tournament=running, conditional=False).count()
    done = Match.objects.filter(tournament=running, status=Match.Status.FINISHED).count()
    assert done == real // 2
    ticking = Match.objects.filter(
        tournament=running, status=Match.Status.RUNNING, clock_running_since__isnull=False
    )
    assert ticking.count() == 4
    assert sorted(m.table.number for m in ticking) == [1, 2, 3, 4]
    assert all(m.version > 0 for m in ticking)

    assert finished.status == Tournament.Status.FINISHED
    assert [d["place"] for d in diploma_entries(finished)] == [1, 2, 3]

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue()
    assert Tournament.objects.count() == 5
