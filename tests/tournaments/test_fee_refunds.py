"""Money that balances: a paid player who withdraws is refunded or forfeits his fee by the
tournament's setting, the desk records it, and the pool is a share of the fees kept."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.models import AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Registration, Tournament
from tournaments.selectors.desk import registration_totals
from tournaments.selectors.prizes import tournament_prizes

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(client, organiser):
    client.force_login(organiser)
    return client


def _desk(organiser, *, rule: str = "refund_before_draw", fee: str = "500", **extra):
    t = TournamentFactory(
        organisers=[organiser],
        entry_fee=Decimal(fee),
        withdrawal_fee=rule,
        pool_percent=Decimal("70"),
        prize_unit=Decimal("50"),
        **extra,
    )
    return t


def _paid(t, organiser, n: int) -> list[Registration]:
    regs = []
    for _ in range(n):
        reg = services.registration_add(tournament=t, player=PlayerFactory(), actor=organiser)
        regs.append(services.registration_set_paid(registration=reg, paid=True, actor=organiser))
    return regs


def test_a_paid_player_who_withdraws_before_the_draw_gets_his_fee_back(organiser):
    t = _desk(organiser)
    regs = _paid(t, organiser, 17)
    services.registration_withdraw(registration=regs[0], actor=organiser)
    totals = registration_totals(tournament=t)
    # The desk: 17 × 500 collected, one refunded, 16 × 500 kept; the pool is 70 % of it.
    assert totals["fees_collected"] == Decimal("8500")
    assert totals["fees_refunded"] == Decimal("500")
    assert totals["fees_kept"] == totals["fees_paid"] == Decimal("8000")
    assert totals["fees_due"] == Decimal("8000") and totals["fees_outstanding"] == 0
    assert totals["pool"] == Decimal("5600")
    assert tournament_prizes(tournament=t)["pool"] == Decimal("5600")
    reg = Registration.objects.get(pk=regs[0].pk)
    assert (reg.paid, reg.fee_paid, reg.fee_refunded) == (False, 0, Decimal("500"))
    assert reg.refunded_by == organiser and reg.refunded_at is not None
    entry = AuditEntry.objects.get(action="registration_refund", tournament=t)
    assert entry.data["amount"] == "500.00" and entry.actor == organiser


def test_after_the_draw_the_fee_is_kept_and_the_desk_may_still_refund_it(organiser, org_api):
    t = _desk(organiser)
    regs = _paid(t, organiser, 4)
    services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    services.registration_withdraw(registration=regs[3], actor=organiser)
    totals = registration_totals(tournament=t)
    assert (totals["fees_kept"], totals["fees_refunded"]) == (Decimal("2000"), 0)
    base = f"/api/v1/tournaments/{t.pk}/registrations/"
    active = org_api.post(f"{base}{regs[0].pk}/refund/", {}, format="json")
    assert active.status_code == 409 and active.json()["code"] == "registration_active"
    done = org_api.post(f"{base}{regs[3].pk}/refund/", {"reason": "травма"}, format="json")
    assert done.status_code == 200, done.json()
    body = done.json()
    assert (body["fee_kept"], body["fee_refunded"], body["paid"]) == ("0.00", "500.00", False)
    again = org_api.post(f"{base}{regs[3].pk}/refund/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_paid"
    sums = org_api.get(f"{base}totals/").json()
    assert (sums["fees_collected"], sums["fees_refunded"], sums["fees_kept"]) == (
        "2000.00",
        "500.00",
        "1500.00",
    )
    assert sums["pool"] == "1050.00"


@pytest.mark.parametrize(("rule", "refunded"), [("keep", Decimal("0")), ("refund", Decimal("500"))])
def test_the_regulation_decides(organiser, rule, refunded):
    t = _desk(organiser, rule=rule)
    regs = _paid(t, organiser, 3)
    services.registration_withdraw(registration=regs[0], actor=organiser)
    assert registration_totals(tournament=t)["fees_refunded"] == refunded


def test_re_entry_after_a_refund_pays_again_after_a_forfeit_does_not(organiser):
    t = _desk(organiser)
    [reg] = _paid(t, organiser, 1)
    services.registration_withdraw(registration=reg, actor=organiser)
    back = services.registration_add(tournament=t, player=reg.player, actor=organiser)
    assert back.paid is False
    t.withdrawal_fee = Tournament.WithdrawalFee.KEEP
    t.save()
    services.registration_set_paid(registration=back, paid=True, actor=organiser)
    services.registration_withdraw(registration=back, actor=organiser)
    again = services.registration_add(tournament=t, player=reg.player, actor=organiser)
    assert again.paid is True and again.fee_due == Decimal("500")
    totals = registration_totals(tournament=t)
    assert (totals["fees_collected"], totals["fees_refunded"], totals["fees_kept"]) == (
        Decimal("1000"),
        Decimal("500"),
        Decimal("500"),
    )


def test_desk_and_protocol_show_the_refund(organiser, org_client):
    t = _desk(organiser)
    regs = _paid(t, organiser, 3)
    services.registration_withdraw(registration=regs[0], actor=organiser)
    desk = org_client.get(f"/panel/t/{t.pk}/registrations/").content.decode()
    assert 'data-total="fees-refunded"' in desk and "data-refunded" in desk
    protocol = org_client.get(f"/panel/t/{t.pk}/print/protocol/").content.decode()
    flat = protocol.replace("\u202f", " ").replace("\xa0", " ")
    # Collected 1 500, refunded 500, kept 1 000; the refund names who gave it.
    assert "1 500 ₽" in flat and "1 000 ₽" in flat and "500 ₽" in flat
    assert organiser.username in flat or organiser.get_full_name() in flat


def test_the_panel_refund_button(organiser, org_client):
    t = _desk(organiser)
    regs = _paid(t, organiser, 4)
    services.tournament_draw(tournament=t, actor=organiser, method="seeded")
    services.registration_withdraw(registration=regs[1], actor=organiser)
    page = org_client.get(f"/panel/t/{t.pk}/registrations/").content.decode()
    assert f"/registrations/{regs[1].pk}/refund/" in page
    org_client.post(f"/panel/t/{t.pk}/registrations/{regs[1].pk}/refund/")
    assert Registration.objects.get(pk=regs[1].pk).fee_refunded == Decimal("500")


# --- random desks -------------------------------------------------------------------------

PLAYERS = 6
OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["register", "online", "pay", "unpay", "withdraw", "refund", "draw", "rating"]
        ),
        st.integers(0, PLAYERS - 1),
    ),
    min_size=1,
    max_size=30,
)


def _expected_pool(kept: Decimal, t: Tournament) -> Decimal:
    units = (kept * t.pool_percent / 100) // t.prize_unit
    return units * t.prize_unit + t.added_money


# The property the issue asks for, over whole desks: about 1 s an example (each a tournament
# with a draw); 20 derandomized examples keep it near 15 s.
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ops=OPS,
    rule=st.sampled_from([c.value for c in Tournament.WithdrawalFee]),
    bands=st.booleans(),
)
# Above 15 branches on purpose: each operation moves the model's totals (cash in, cash out,
# kept) right beside the service call it mirrors; a table of functions would pass that model
# around and hide which operation moves which total.
def test_random_desks_balance(organiser, ops, rule, bands):  # noqa: C901
    """Whatever the desk does (register, enter online onto the reserve list, pay, untick,
    withdraw, refund, re-enter, draw), what the cash box saw matches the totals: collected −
    refunded = kept, each player keeps what he paid and was not given back, and the pool is
    exactly the share of the fees kept."""
    with transaction.atomic():
        t = _desk(
            organiser,
            rule=rule,
            max_players=3,
            online_entry=True,
            fee_bands=([{"min_rating": None, "max_rating": 999, "fee": "350"}] if bands else []),
            added_money=Decimal("100"),
        )
        players = [PlayerFactory(user=UserFactory(), rating=900 + 100 * i) for i in range(6)]
        cash_in, cash_out = Decimal(0), Decimal(0)
        kept = dict.fromkeys(range(PLAYERS), Decimal(0))  # what the box holds of each
        drawn = False

        def reg_of(i: int) -> Registration | None:
            return Registration.objects.filter(tournament=t, player=players[i]).first()

        for op, i in ops:
            reg = reg_of(i)
            try:
                if op == "register":
                    services.registration_add(tournament=t, player=players[i], actor=organiser)
                elif op == "online":
                    services.entry_submit(tournament=t, user=players[i].user)
                elif op == "rating":
                    players[i].rating += 150  # a re-entry is priced afresh unless paid
                    players[i].save()
                elif op == "draw":
                    services.tournament_draw(
                        tournament=t, actor=organiser, method="seeded", allow_unpaid=True
                    )
                    drawn = True
                elif reg is None:
                    continue
                elif op == "pay":
                    due = reg.fee_due
                    services.registration_set_paid(registration=reg, paid=True, actor=organiser)
                    if not reg.paid:
                        cash_in += due
                        kept[i] = due
                elif op == "unpay":
                    services.registration_set_paid(registration=reg, paid=False, actor=organiser)
                    cash_in -= kept[i]  # ticked by mistake: never collected
                    kept[i] = Decimal(0)
                elif op == "withdraw":
                    services.registration_withdraw(registration=reg, actor=organiser)
                    back = rule == "refund" or (rule == "refund_before_draw" and not drawn)
                    if back:
                        cash_out += kept[i]
                        kept[i] = Decimal(0)
                elif op == "refund":
                    services.registration_refund(registration=reg, actor=organiser)
                    assert reg.status != Registration.Status.ACTIVE and kept[i] > 0
                    cash_out += kept[i]
                    kept[i] = Decimal(0)
            except TournamentError as exc:
                if op == "refund":
                    assert reg is not None
                    assert reg.status == Registration.Status.ACTIVE or kept[i] == 0, exc.code
            t.refresh_from_db()

        totals = registration_totals(tournament=t)
        assert totals["fees_collected"] == cash_in
        assert totals["fees_refunded"] == cash_out
        assert totals["fees_kept"] == cash_in - cash_out == sum(kept.values())
        for i in range(PLAYERS):
            reg = reg_of(i)
            assert (reg.fee_paid if reg else Decimal(0)) == kept[i]
            if reg is not None:
                assert reg.fee_collected - reg.fee_refunded == reg.fee_paid
                assert reg.paid == (reg.fee_paid > 0) or reg.fee_due == 0
        assert Registration.objects.filter(tournament=t, status="active").count() <= 3
        pool = _expected_pool(cash_in - cash_out, t)
        assert totals["pool"] == pool
        assert tournament_prizes(tournament=t)["pool"] == pool
        transaction.set_rollback(True)
