"""The organiser names the tournament's referees by login, from the panel, and takes them off."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditEntry
from tests.factories import UserFactory
from tests.matches.conftest import post_event
from tests.matches.factories import MatchFactory
from tournaments.errors import TournamentError
from tournaments.models import IssuedLogin
from tournaments.services import tournament_referee_add, tournament_referee_remove

pytestmark = pytest.mark.django_db


def panel(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def test_a_login_added_as_referee_may_score_and_is_audited(tournament, organiser) -> None:
    from rest_framework.test import APIClient

    newcomer = UserFactory(username="Petrov")
    IssuedLogin.objects.create(user=newcomer, created_by=organiser)  # a login he made
    match = MatchFactory(tournament=tournament)
    scorer = APIClient()
    scorer.force_login(newcomer)
    assert post_event(scorer, match, {"type": "break", "player": "a"}).status_code == 403

    response = panel(organiser).post(
        f"/panel/t/{tournament.pk}/referees/", {"username": " petrov "}, follow=True
    )

    assert response.status_code == 200
    assert newcomer in tournament.referees.all()
    assert newcomer.groups.filter(name="referee").exists()
    assert "Petrov" in response.content.decode()  # listed on the panel
    event = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
    assert post_event(scorer, match, event).status_code == 201
    entry = AuditEntry.objects.get(action="tournament_referee_add")
    assert (entry.actor, entry.tournament, entry.data["username"]) == (
        organiser,
        tournament,
        "Petrov",
    )


def test_an_unknown_login_is_refused_in_russian_and_changes_nothing(tournament, organiser):
    before = set(tournament.referees.all())
    response = panel(organiser).post(
        f"/panel/t/{tournament.pk}/referees/", {"username": "nobody"}, follow=True
    )
    assert "нет «nobody»" in response.content.decode()
    assert set(tournament.referees.all()) == before
    assert not AuditEntry.objects.filter(action="tournament_referee_add").exists()


def test_adding_twice_and_removing_twice_change_nothing_more(tournament, organiser) -> None:
    newcomer = UserFactory()
    IssuedLogin.objects.create(user=newcomer, created_by=organiser)
    tournament_referee_add(tournament=tournament, username=newcomer.username, actor=organiser)
    tournament_referee_add(tournament=tournament, username=newcomer.username, actor=organiser)
    assert AuditEntry.objects.filter(action="tournament_referee_add").count() == 1
    tournament_referee_remove(tournament=tournament, user_id=newcomer.pk, actor=organiser)
    tournament_referee_remove(tournament=tournament, user_id=newcomer.pk, actor=organiser)
    assert newcomer not in tournament.referees.all()
    assert AuditEntry.objects.filter(action="tournament_referee_remove").count() == 1


def test_a_removed_referee_may_no_longer_score(tournament, organiser, referee) -> None:
    from rest_framework.test import APIClient

    match = MatchFactory(tournament=tournament)
    scorer = APIClient()
    scorer.force_login(referee)

    panel(organiser).post(f"/panel/t/{tournament.pk}/referees/{referee.pk}/remove/")

    assert referee not in tournament.referees.all()
    assert post_event(scorer, match, {"type": "break", "player": "a"}).status_code == 403


def test_an_inactive_login_cannot_be_added(tournament, organiser) -> None:
    gone = UserFactory(is_active=False)
    with pytest.raises(TournamentError):
        tournament_referee_add(tournament=tournament, username=gone.username, actor=organiser)


def test_a_login_he_did_not_make_is_refused_as_if_unknown(tournament, organiser) -> None:
    """The probe named the superuser and any active login as his referee: the form confirmed
    that the login exists. Now a stranger's login, a superuser's and an unknown name get one
    answer, and nothing changes."""
    stranger = UserFactory(username="stranger")
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    answers = set()
    for name in (stranger.username, root.username, "nobody-at-all"):
        with pytest.raises(TournamentError) as refused:
            tournament_referee_add(tournament=tournament, username=name, actor=organiser)
        answers.add((refused.value.code, refused.value.status))
    assert answers == {("unknown_user", 400)}
    assert not tournament.referees.filter(pk__in=[stranger.pk, root.pk]).exists()
    assert not root.groups.filter(name="referee").exists()


def test_the_last_tournament_letting_him_go_takes_the_referee_role(tournament, organiser):
    newcomer = UserFactory()
    IssuedLogin.objects.create(user=newcomer, created_by=organiser)
    tournament_referee_add(tournament=tournament, username=newcomer.username, actor=organiser)
    assert newcomer.groups.filter(name="referee").exists()
    tournament_referee_remove(tournament=tournament, user_id=newcomer.pk, actor=organiser)
    assert not newcomer.groups.filter(name="referee").exists()
    # He accepted once: the organiser may name him again.
    tournament_referee_add(tournament=tournament, username=newcomer.username, actor=organiser)
    assert newcomer in tournament.referees.all()
