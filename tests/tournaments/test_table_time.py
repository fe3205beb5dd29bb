"""Table time: the table-hour price, who pays it (loser, split, nobody) at a discount, each
match's time from its clock; the desk shows who owes what and takes it; the protocol sums it."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from audit.models import AuditEntry
from matches.models import Match
from tests.web.helpers import drawn_tournament
from tournaments.algorithms.table_time import charge, table_minutes
from tournaments.selectors.desk import table_time

T0 = timezone.now().replace(microsecond=0)


def test_minutes_run_from_the_call_and_leave_breaks_out_when_asked() -> None:
    called, started = T0, T0 + timedelta(minutes=4)
    finished = started + timedelta(minutes=50, seconds=10)
    net = (50 * 60 + 10 - 8 * 60) * 1000  # an 8-minute technical break
    both = {"called_at": called, "started_at": started, "finished_at": finished, "net_ms": net}
    assert table_minutes(**both, breaks_included=True) == 55  # 54:10, a started minute counts
    assert table_minutes(**both, breaks_included=False) == 47
    assert table_minutes(**{**both, "started_at": None}, breaks_included=True) == 0


def test_who_pays() -> None:
    price = Decimal("600")
    loser = charge(
        minutes=45, price_per_hour=price, payer="loser", discount_percent=Decimal(50), winner="a"
    )
    assert (loser.cost, loser.due) == (Decimal("450.00"), {"a": 0, "b": Decimal("225.00")})
    split = charge(minutes=1, price_per_hour=Decimal("1"), payer="split", winner="b")
    assert split.total == split.cost == Decimal("0.02")
    assert split.due == {"a": Decimal("0.01"), "b": Decimal("0.01")}
    odd = charge(minutes=3, price_per_hour=Decimal("1"), payer="split", winner="b")
    assert odd.due == {"a": Decimal("0.03"), "b": Decimal("0.02")}  # the loser's odd kopeck
    assert charge(minutes=60, price_per_hour=price, payer="nobody", winner="a").total == 0
    with pytest.raises(TypeError):
        charge(minutes=1, price_per_hour=600.0, payer="loser", winner="a")  # type: ignore[arg-type]


@pytest.mark.django_db
def test_the_desk_takes_the_losers_table_time_and_the_protocol_sums_it(client, organiser):
    t = drawn_tournament(
        organiser,
        4,
        format="single",
        table_hour_price="600",
        table_time_payer="loser",
        table_time_discount="50",
    )
    match = Match.objects.filter(tournament=t, status=Match.Status.READY).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        called_at=T0,
        started_at=T0 + timedelta(minutes=5),
        finished_at=T0 + timedelta(minutes=65),
        clock_elapsed_ms=50 * 60 * 1000,  # 10 minutes of technical breaks
        winner=match.player_a,
        loser=match.player_b,
        result=Match.Result.RACE,
    )
    money = table_time(tournament=t)
    [row] = money["rows"]
    assert row["minutes"] == 55  # 65 minutes at the table, breaks excluded
    assert money["owed"] == Decimal("275.00")  # 550 for the table, the loser pays half
    assert [s["player"].pk for s in row["sides"]] == [match.player_b_id]

    client.force_login(organiser)
    desk = client.get(f"/panel/t/{t.pk}/registrations/").content.decode()
    assert "data-table-time" in desk and 'data-total="table-owed"' in desk
    client.post(
        f"/panel/t/{t.pk}/table-time/{match.pk}/paid/", {"player": match.player_b_id, "paid": "1"}
    )
    money = table_time(tournament=t)
    assert (money["paid"], money["owed"]) == (Decimal("275.00"), 0)
    assert AuditEntry.objects.filter(action="table_time_paid", tournament=t).count() == 1
    # The winner owes nothing: the desk cannot take it.
    refused = client.post(
        f"/panel/t/{t.pk}/table-time/{match.pk}/paid/", {"player": match.player_a_id, "paid": "1"}
    )
    assert refused.status_code in (302, 409)
    assert table_time(tournament=t)["paid"] == Decimal("275.00")
    protocol = client.get(f"/panel/t/{t.pk}/print/protocol/").content.decode()
    assert "Table time paid" in protocol or "игровое время" in protocol.lower()
    # Money never reaches the scoreboard or the referee's form.
    for page in (f"/m/{match.pk}/", f"/m/{match.pk}/score/"):
        assert "275" not in client.get(page).content.decode()
