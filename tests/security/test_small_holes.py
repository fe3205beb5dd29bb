"""The probe's small holes, each closed (the placeholder secret key: tests/foundation/
test_settings.py; naming any login as a referee: tests/tournaments/test_referees.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.world import ensure_role_groups, make_tournament
from tournaments import services
from tournaments.models import Registration, SeriesStage, Tournament
from tournaments.services.series import series_create

pytestmark = pytest.mark.django_db


def test_wrong_old_passwords_count_in_the_login_limit(settings):
    """A stolen session guessed the password on /accounts/password/ without any limit."""
    user = UserFactory(username="victim")
    client = Client(REMOTE_ADDR="203.0.113.10")
    client.force_login(user)
    answers = [
        client.post(
            "/accounts/password/",
            {"old_password": f"guess-{n}", "new_password1": "x", "new_password2": "x"},
        ).status_code
        for n in range(settings.AXES_FAILURE_LIMIT + 1)
    ]
    assert answers[0] == 200 and answers[-1] == 429
    # Locked: even the right old password is not checked now, and the login page agrees.
    right = client.post(
        "/accounts/password/",
        {
            "old_password": "correct-horse-battery",
            "new_password1": "Пирамида-Луза-2026",
            "new_password2": "Пирамида-Луза-2026",
        },
    )
    assert right.status_code == 429
    login = Client(REMOTE_ADDR="203.0.113.10").post(
        "/accounts/login/", {"username": "victim", "password": "correct-horse-battery"}
    )
    assert login.status_code == 429


def test_a_hidden_stage_leaves_no_trace_on_the_series_or_the_player(db):
    ensure_role_groups()
    organiser = OrganiserFactory()
    hidden = make_tournament(organiser, name="Закрытый этап", is_public=False)
    shown = make_tournament(organiser, name="Открытый этап")
    series = series_create(
        actor=organiser,
        data={"name": "Кубок клуба", "points_table": [10, 6, 4]},
        tournaments=[hidden, shown],
    )
    assert list(SeriesStage.objects.filter(series=series).values_list("number", flat=True)) == [
        1,
        2,
    ]
    only_hidden = PlayerFactory(name="Тайный Игрок")
    services.registration_add(tournament=hidden, player=only_hidden, actor=organiser)
    Registration.objects.filter(tournament=hidden).update(seed=1)
    Tournament.objects.filter(pk=hidden.pk).update(status=Tournament.Status.FINISHED)
    page = Client().get(f"/series/{series.pk}/").content.decode()
    assert "Этап 1" in page and "Этап 2" not in page and "Закрытый этап" not in page
    api = Client().get(f"/api/v1/players/{only_hidden.pk}/profile/").json()
    assert api["series"] == []
    assert "Кубок клуба" not in Client().get(f"/players/{only_hidden.pk}/").content.decode()
    # Its organiser sees both, as they are numbered.
    mine = Client()
    mine.force_login(organiser)
    assert "Этап 2" in mine.get(f"/series/{series.pk}/").content.decode()


def test_a_second_slip_tells_the_first_ones_holder_it_was_replaced(db):
    ensure_role_groups()
    organiser = OrganiserFactory()
    tournament = make_tournament(organiser)
    player = PlayerFactory()
    services.registration_add(tournament=tournament, player=player, actor=organiser)
    _, first = services.player_claim_issue(player=player, actor=organiser)
    _, second = services.player_claim_issue(player=player, actor=organiser)
    page = Client().get(f"/claim/?code={first}").content.decode()
    assert "заменена новой" in page
    response = Client().post(
        "/claim/",
        {
            "code": first,
            "username": "newplayer",
            "password1": "Пирамида-Луза-2026",
            "password2": "Пирамида-Луза-2026",
        },
    )
    assert response.status_code == 400 and "заменена новой" in response.content.decode()
    assert "заменена" not in Client().get(f"/claim/?code={second}").content.decode()
