"""The labels a new user reads: a paid fee is not «оплата на месте», a finished tournament has
no reserve number, the rating list's filter asks for a name, the score column is «Счёт», and
«Выйти (логин)» has its space."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _entered(tournament, *, max_players: int = 1):
    tournament.online_entry = True
    tournament.max_players = max_players
    tournament.save()
    users = [UserFactory(), UserFactory()]
    for user in users:
        PlayerFactory(user=user)
        services.entry_submit(tournament=tournament, user=user)
    return users


def _page(user, tournament) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/t/{tournament.pk}/entry/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_a_paid_entrant_reads_paid_not_pay_at_the_desk(tournament, organiser) -> None:
    first, _second = _entered(tournament)
    assert "оплата на месте" in _page(first, tournament)
    reg = tournament.registrations.get(player__user=first)
    services.registration_set_paid(registration=reg, paid=True, actor=organiser)
    page = _page(first, tournament)
    assert "оплата на месте" not in page and "Взнос оплачен" in page


def test_no_reserve_number_once_the_tournament_is_over(tournament) -> None:
    _first, second = _entered(tournament)
    assert "Вы № 1 в резерве" in _page(second, tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    page = _page(second, tournament)
    assert "Вы № 1 в резерве" not in page and "вы остались в резерве" in page


def test_rating_list_score_column_and_logout_read_right(client) -> None:
    user = UserFactory(username="organiser")
    client.force_login(user)
    page = client.get("/players/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Имя<input" in page and "Название" not in page
    assert "Выйти <span" in page
    with translation.override("ru"):
        table = render_to_string("players/_matches.html", {"lines": []})
    assert ">Счёт<" in table and "Вести" not in table
