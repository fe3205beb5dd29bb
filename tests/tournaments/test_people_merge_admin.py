"""A superuser merges two records of one person; the Django admin is the superuser's only, its
match links stay inside the tournament, and what is changed there is audited."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEntry
from matches.models import Match
from tests.factories import (
    OrganiserFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.factories import MatchFactory, TableFactory
from tournaments.models import Player, RatingChange, Registration

pytestmark = pytest.mark.django_db


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_superuser_merges_two_records_of_one_person(superuser, organiser):
    keep = PlayerFactory(name="Петров Михаил", city="", club="", rating=1200)
    drop = PlayerFactory(name="Петров  Михаил", city="Мытищи", rating=1000, user=UserFactory())
    first, second = TournamentFactory(organisers=[organiser]), TournamentFactory()
    RegistrationFactory(tournament=first, player=keep)
    RegistrationFactory(tournament=second, player=drop)
    match = MatchFactory(tournament=second, player_a=drop)
    RatingChange.objects.create(
        player=drop, opponent=keep, rating_before=990, rating_after=1000, delta=10
    )
    api_as(superuser).patch(f"/api/v1/players/{drop.pk}/", {"club": "Лидер"}, format="json")
    login = drop.user

    refused = api_as(organiser).post(
        f"/api/v1/players/{keep.pk}/merge/", {"drop": drop.pk}, format="json"
    )
    assert refused.status_code == 403
    response = api_as(superuser).post(
        f"/api/v1/players/{keep.pk}/merge/", {"drop": drop.pk}, format="json"
    )
    assert response.status_code == 200, response.json()

    assert not Player.objects.filter(pk=drop.pk).exists()
    keep.refresh_from_db()
    assert (keep.rating, keep.city, keep.club, keep.user) == (1200, "Мытищи", "Лидер", login)
    assert Registration.objects.filter(player=keep).count() == 2
    assert Match.objects.get(pk=match.pk).player_a_id == keep.pk
    assert RatingChange.objects.filter(player=keep).count() == 1
    assert AuditEntry.objects.filter(player=keep, action="admin_change").count() == 0
    assert AuditEntry.objects.filter(player=keep, action="player_update").exists()
    merge = AuditEntry.objects.get(action="player_merge")
    assert merge.actor == superuser and merge.data["merged"]["player"] == drop.pk


def test_a_merge_of_two_players_in_one_tournament_is_refused(superuser, tournament):
    keep, drop = PlayerFactory(), PlayerFactory()
    RegistrationFactory(tournament=tournament, player=keep)
    RegistrationFactory(tournament=tournament, player=drop)
    response = api_as(superuser).post(
        f"/api/v1/players/{keep.pk}/merge/", {"drop": drop.pk}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "merge_conflict"
    assert Player.objects.filter(pk=drop.pk).exists()


def test_the_merge_page_is_the_superusers(superuser, organiser):
    keep, drop = PlayerFactory(), PlayerFactory()
    assert "Объединить" not in browser(organiser).get(f"/panel/players/{keep.pk}/").content.decode()
    browser(organiser).post(f"/panel/players/{keep.pk}/merge/", {"drop": drop.pk})
    assert Player.objects.filter(pk=drop.pk).exists()
    response = browser(superuser).post(
        f"/panel/players/{keep.pk}/merge/", {"drop": drop.pk}, follow=True
    )
    assert "Две записи объединены" in response.content.decode()
    assert not Player.objects.filter(pk=drop.pk).exists()


def test_the_admin_is_for_superusers_only():
    for user in (OrganiserFactory(is_staff=True), UserFactory(is_staff=True)):
        response = browser(user).get("/admin/")
        assert response.status_code == 302 and "login" in response["Location"]
        assert browser(user).get("/admin/tournaments/player/").status_code == 302
    assert browser(UserFactory(is_staff=True, is_superuser=True)).get("/admin/").status_code == 200


def _match_form(match, **changes):
    data = {
        "tournament": match.tournament_id,
        "key": match.key,
        "stage": match.stage,
        "round": match.round,
        "order": match.order,
        "schedule_round": 0,
        "player_a": match.player_a_id,
        "player_b": match.player_b_id,
        "ruleset": '{"discipline": "free_pyramid", "balls_to_win": 8}',
        "status": match.status,
        "clock_limit_seconds": 4800,
        "clock_elapsed_ms": 0,
        "winner_slot": "",
        "loser_slot": "",
        "judge_note": "",
        "result": "",
        "events-TOTAL_FORMS": 0,
        "events-INITIAL_FORMS": 0,
    }
    data.update(changes)
    return data


def test_the_admin_keeps_a_matchs_links_in_its_tournament(superuser):
    match = MatchFactory()
    RegistrationFactory(tournament=match.tournament, player=match.player_a)
    RegistrationFactory(tournament=match.tournament, player=match.player_b)
    elsewhere = MatchFactory()
    next_match = MatchFactory(tournament=match.tournament)
    foreign_table = TableFactory(tournament=elsewhere.tournament)
    client = browser(superuser)
    url = f"/admin/matches/match/{match.pk}/change/"
    before = AuditEntry.objects.count()

    for changes in (
        {"winner_to": elsewhere.pk, "winner_slot": "a"},
        {"loser_to": elsewhere.pk, "loser_slot": "b"},
        {"table": foreign_table.pk},
        {"winner_to": next_match.pk, "winner_slot": ""},
    ):
        response = client.post(url, _match_form(match, **changes))
        assert response.status_code == 200, changes  # the form again, with its error
        assert response.context["adminform"].form.errors, changes
    match.refresh_from_db()
    assert (match.winner_to_id, match.loser_to_id, match.table_id) == (None, None, None)
    assert AuditEntry.objects.count() == before

    response = client.post(url, _match_form(match, winner_to=next_match.pk, winner_slot="a"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    match.refresh_from_db()
    assert match.winner_to_id == next_match.pk
    entry = AuditEntry.objects.get(action="admin_change")
    assert entry.actor == superuser and entry.tournament_id == match.tournament_id
    assert entry.data["changed"]["winner_to"] == next_match.pk


def test_a_superuser_links_and_unlinks_a_login_on_the_players_card(superuser, organiser):
    player, login = PlayerFactory(), UserFactory(username="volkov")
    url = f"/panel/players/{player.pk}/login/"
    browser(organiser).post(url, {"username": "volkov"})
    player.refresh_from_db()
    assert player.user is None
    browser(superuser).post(url, {"username": "VOLKOV"})
    player.refresh_from_db()
    assert player.user == login
    other = UserFactory(username="other")
    page = browser(superuser).post(url, {"username": "other"}, follow=True).content.decode()
    assert "сначала отвяжите" in page
    player.refresh_from_db()
    assert player.user == login
    assert not Player.objects.filter(user=other).exists()
    browser(superuser).post(url, {"unlink": "1"})
    player.refresh_from_db()
    assert player.user is None
    actions = list(
        AuditEntry.objects.filter(player=player).values_list("action", flat=True).order_by("pk")
    )
    assert actions == ["player_link_login", "player_unlink_login"]
