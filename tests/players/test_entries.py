"""Online entry, the reserve list, check-in and the removal of absent players (services)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import PlayerRequest, Registration
from tournaments.services.entry_rules import entry_window_state, reserve_list, reserve_position

pytestmark = pytest.mark.django_db


def player_with_login(rating: int = 1000):
    user = UserFactory()
    return PlayerFactory(user=user, rating=rating), user


@pytest.fixture
def online(tournament):
    tournament.online_entry = True
    tournament.max_players = 2
    tournament.save()
    return tournament


def test_entries_up_to_the_maximum_are_in_later_ones_are_numbered_reserves(online) -> None:
    regs = [services.entry_submit(tournament=online, user=player_with_login()[1]) for _ in range(4)]
    assert [r.status for r in regs] == ["active", "active", "reserve", "reserve"]
    assert [reserve_position(r) for r in regs] == [None, None, 1, 2]
    assert all(r.online for r in regs)
    assert AuditEntry.objects.filter(action="entry_reserve").count() == 2


def test_a_withdrawal_moves_the_first_reserve_up(online, organiser) -> None:
    regs = [services.entry_submit(tournament=online, user=player_with_login()[1]) for _ in range(4)]
    services.entry_withdraw(registration=regs[0], user=regs[0].player.user)
    statuses = {r.pk: r.status for r in Registration.objects.filter(tournament=online)}
    assert statuses[regs[2].pk] == "active"
    assert statuses[regs[3].pk] == "reserve"
    promoted = Registration.objects.get(pk=regs[2].pk)
    assert promoted.promoted_at is not None
    assert reserve_position(Registration.objects.get(pk=regs[3].pk)) == 1
    # A reserve leaving the line promotes nobody.
    services.registration_withdraw(
        registration=Registration.objects.get(pk=regs[3].pk), actor=organiser
    )
    assert reserve_list(tournament=online) == []
    assert AuditEntry.objects.filter(action="reserve_promoted", player=regs[2].player).exists()


def test_entry_is_refused_outside_its_window_and_rating_limits(online) -> None:
    _, user = player_with_login(rating=1500)
    online.entry_max_rating = 1400
    online.save()
    with pytest.raises(TournamentError) as err:
        services.entry_submit(tournament=online, user=user)
    assert err.value.code == "rating_out_of_limits"
    online.entry_max_rating = None
    online.entry_opens_at = timezone.now() + timedelta(hours=1)
    online.save()
    assert entry_window_state(online) == "not_open"
    with pytest.raises(TournamentError) as err:
        services.entry_submit(tournament=online, user=user)
    assert err.value.code == "entry_not_open"
    online.entry_opens_at = None
    online.entry_closes_at = timezone.now() - timedelta(minutes=1)
    online.save()
    assert entry_window_state(online) == "closed"
    assert not Registration.objects.filter(tournament=online).exists()


def test_a_login_without_a_player_cannot_enter(online) -> None:
    with pytest.raises(TournamentError) as err:
        services.entry_submit(tournament=online, user=UserFactory())
    assert err.value.code == "no_player"


def test_entering_twice_is_refused(online) -> None:
    _, user = player_with_login()
    services.entry_submit(tournament=online, user=user)
    with pytest.raises(TournamentError) as err:
        services.entry_submit(tournament=online, user=user)
    assert err.value.code == "already_registered"


def test_desk_rating_limits_apply_too(online, organiser) -> None:
    online.entry_min_rating = 1100
    online.save()
    with pytest.raises(TournamentError) as err:
        services.registration_add(
            tournament=online, player=PlayerFactory(rating=900), actor=organiser
        )
    assert err.value.code == "rating_out_of_limits"


def test_check_in_and_removing_the_absent_promotes_present_reserves_in_order(
    online, organiser
) -> None:
    regs = [services.entry_submit(tournament=online, user=player_with_login()[1]) for _ in range(5)]
    services.registration_check_in(registration=regs[0], actor=organiser)
    # The second reserve is present, the first is not: the present one moves up.
    services.registration_check_in(registration=regs[3], actor=organiser)
    services.registration_check_in(registration=regs[4], actor=organiser)
    result = services.registration_remove_absent(tournament=online, actor=organiser)
    assert result["removed"] == [regs[1].pk]
    assert result["promoted"] == [regs[3].pk]
    statuses = dict(Registration.objects.filter(tournament=online).values_list("pk", "status"))
    assert statuses == {
        regs[0].pk: "active",
        regs[1].pk: "withdrawn",
        regs[2].pk: "reserve",
        regs[3].pk: "active",
        regs[4].pk: "reserve",
    }
    assert AuditEntry.objects.filter(action="registration_check_in").count() == 3
    assert AuditEntry.objects.filter(action="registration_remove_absent").count() == 1


def test_check_in_is_before_the_draw_only(online, organiser) -> None:
    reg = services.entry_submit(tournament=online, user=player_with_login()[1])
    online.status = "drawn"
    online.save()
    with pytest.raises(TournamentError):
        services.registration_check_in(registration=reg, actor=organiser)


def test_a_request_to_be_added_is_approved_into_a_player_and_an_entry(online, organiser) -> None:
    user = UserFactory()
    request = services.player_request_create(
        user=user, tournament=online, name="  Новый   Игрок ", city="Тула"
    )
    with pytest.raises(TournamentError):
        services.player_request_create(user=user, tournament=online, name="Ещё Раз")
    with pytest.raises(TournamentError) as err:
        services.player_request_decide(request=request, actor=UserFactory(), approve=True)
    assert err.value.code == "forbidden"
    decided = services.player_request_decide(request=request, actor=organiser, approve=True)
    assert decided.status == PlayerRequest.Status.APPROVED
    assert decided.player.user == user
    assert decided.player.name == "Новый Игрок"
    assert Registration.objects.get(tournament=online, player=decided.player).status == "active"


def test_more_places_move_the_reserves_up(online, organiser) -> None:
    regs = [services.entry_submit(tournament=online, user=player_with_login()[1]) for _ in range(4)]
    services.tournament_update(tournament=online, actor=organiser, data={"max_players": 3})
    statuses = dict(Registration.objects.filter(tournament=online).values_list("pk", "status"))
    assert [statuses[r.pk] for r in regs] == ["active", "active", "active", "reserve"]
