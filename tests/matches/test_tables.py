"""Tables: numbered per tournament; ready matches are called to free tables in queue order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from matches import selectors, services
from matches.errors import MatchError
from matches.models import Match, Table
from matches.web.api.serializers.tables import TableBoardSerializer
from tests.factories import PlayerFactory
from tests.matches.conftest import b_pockets, play
from tests.matches.factories import MatchFactory, TableFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(tournament):
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


def numbers(matches) -> list[str]:
    return [m.key for m in matches]


def test_tables_are_numbered_one_to_count(tournament, organiser) -> None:
    tables = services.tables_ensure(tournament=tournament, count=4, actor=organiser)
    assert [(t.number, t.is_active) for t in tables] == [(n, True) for n in range(1, 5)]

    busy = MatchFactory(tournament=tournament)
    services.match_assign_table(match=busy, table=4, actor=organiser)
    tables = services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    # Table 3 goes out of use; table 4 keeps its match until it is over.
    assert [(t.number, t.is_active) for t in tables] == [
        (1, True),
        (2, True),
        (3, False),
        (4, True),
    ]
    assert AuditEntry.objects.filter(tournament=tournament, action="tables.ensure").count() == 2


def test_the_next_ready_matches_go_to_the_free_tables_in_queue_order(tournament, organiser):
    services.tables_ensure(tournament=tournament, count=3, actor=organiser)
    MatchFactory(tournament=tournament, key="late", schedule_round=2, round=1, order=1)
    MatchFactory(tournament=tournament, key="second", schedule_round=1, round=1, order=2)
    first = MatchFactory(tournament=tournament, key="first", schedule_round=1, round=1, order=1)
    MatchFactory(tournament=tournament, key="held", schedule_round=0, held=True)
    MatchFactory(tournament=tournament, key="waiting", schedule_round=0, status="scheduled")

    assigned = services.table_assign_next(tournament=tournament, actor=organiser)

    assert numbers(assigned) == ["first", "second", "late"]
    assert [m.table.number for m in assigned] == [1, 2, 3]
    first.refresh_from_db()
    assert first.status == "on_table" and first.called_at is not None
    assert services.table_assign_next(tournament=tournament, actor=organiser) == []
    assert AuditEntry.objects.filter(action="match.table_assigned").count() == 3


def test_a_player_is_not_called_to_two_tables(tournament, organiser) -> None:
    services.tables_ensure(tournament=tournament, count=3, actor=organiser)
    ivanov, petrov, sidorov, kuznetsov = PlayerFactory.create_batch(4)
    # A round-robin group: every match is ready at once.
    MatchFactory(tournament=tournament, key="g1", order=1, player_a=ivanov, player_b=petrov)
    MatchFactory(tournament=tournament, key="g2", order=2, player_a=ivanov, player_b=sidorov)
    MatchFactory(tournament=tournament, key="g3", order=3, player_a=sidorov, player_b=kuznetsov)

    assigned = services.table_assign_next(tournament=tournament, actor=organiser)

    assert numbers(assigned) == ["g1", "g3"]


def test_a_busy_or_unknown_table_is_refused(tournament, organiser) -> None:
    services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    one, two = MatchFactory.create_batch(2, tournament=tournament)
    services.match_assign_table(match=one, table=1, actor=organiser)

    with pytest.raises(MatchError) as busy:
        services.match_assign_table(match=two, table=1, actor=organiser)
    assert busy.value.code == "table_busy" and busy.value.status == 409
    with pytest.raises(MatchError) as unknown:
        services.match_assign_table(match=two, table=9, actor=organiser)
    assert unknown.value.code == "table_not_found"


def test_a_match_moves_to_another_free_table(scorer, tournament, organiser, match) -> None:
    services.tables_ensure(tournament=tournament, count=3, actor=organiser)
    services.match_assign_table(match=match, table=1, actor=organiser)
    play(scorer, match, b_pockets(1))
    other = MatchFactory(tournament=tournament)
    services.match_assign_table(match=other, table=3, actor=organiser)

    with pytest.raises(MatchError) as busy:
        services.match_move(match=match, table=3, actor=organiser)
    assert busy.value.code == "table_busy"

    services.match_move(match=match, table=2, actor=organiser)
    match.refresh_from_db()
    assert match.table.number == 2 and match.status == "running"
    entry = AuditEntry.objects.get(action="match.table_moved")
    assert entry.data == {"from": 1, "to": 2}


def test_holding_a_called_match_sends_it_back_to_the_queue(tournament, organiser, match) -> None:
    services.tables_ensure(tournament=tournament, count=1, actor=organiser)
    services.table_assign_next(tournament=tournament, actor=organiser)

    services.match_hold(match=match, held=True, actor=organiser)

    match.refresh_from_db()
    assert match.held and match.status == "ready" and match.table is None
    assert services.table_assign_next(tournament=tournament, actor=organiser) == []
    services.match_hold(match=match, held=False, actor=organiser)
    assert numbers(services.table_assign_next(tournament=tournament, actor=organiser)) == [
        match.key
    ]


def test_freeing_a_table_puts_an_unstarted_match_back(scorer, tournament, organiser, match):
    services.tables_ensure(tournament=tournament, count=1, actor=organiser)
    services.table_assign_next(tournament=tournament, actor=organiser)
    table = Table.objects.get(tournament=tournament, number=1)

    freed = services.table_free(table=table, actor=organiser)
    assert freed.pk == match.pk
    match.refresh_from_db()
    assert match.status == "ready" and match.table is None and match.called_at is None

    with pytest.raises(MatchError) as empty:
        services.table_free(table=table, actor=organiser)
    assert empty.value.code == "table_free"

    services.table_assign_next(tournament=tournament, actor=organiser)
    play(scorer, match, b_pockets(1))
    with pytest.raises(MatchError) as started:
        services.table_free(table=table, actor=organiser)
    assert started.value.code == "match_in_progress"


def test_a_finished_match_frees_its_table_for_the_next(scorer, running, organiser, match):
    services.tables_ensure(tournament=running, count=1, actor=organiser)
    services.table_assign_next(tournament=running, actor=organiser)
    following = MatchFactory(tournament=running, schedule_round=1)

    play(scorer, match, b_pockets(6))

    following.refresh_from_db()
    assert following.status == "on_table" and following.table.number == 1
    match.refresh_from_db()
    assert match.table.number == 1  # where it was played stays on record


def test_no_automatic_call_while_the_tournament_is_not_running(scorer, tournament, organiser):
    services.tables_ensure(tournament=tournament, count=1, actor=organiser)
    first = MatchFactory(tournament=tournament, order=1)
    following = MatchFactory(tournament=tournament, order=2)
    services.table_assign_next(tournament=tournament, actor=organiser)

    play(scorer, first, b_pockets(6))

    following.refresh_from_db()
    assert following.status == "ready" and following.table is None


def test_the_board_takes_the_same_queries_for_any_number_of_tables(tournament, organiser):
    def board_queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            board = selectors.table_board(tournament=tournament)
            TableBoardSerializer(board).data  # noqa: B018 - rendering must not query
        return len(ctx.captured_queries)

    services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    MatchFactory.create_batch(3, tournament=tournament)
    services.table_assign_next(tournament=tournament, actor=organiser)
    small = board_queries()

    services.tables_ensure(tournament=tournament, count=10, actor=organiser)
    MatchFactory.create_batch(12, tournament=tournament)
    services.table_assign_next(tournament=tournament, actor=organiser)
    assert board_queries() == small == 3


def test_the_board_through_the_api(api, tournament, organiser, match, scorer) -> None:
    services.tables_ensure(tournament=tournament, count=2, actor=organiser)
    services.match_assign_table(match=match, table=2, actor=organiser)
    play(scorer, match, b_pockets(1))
    waiting = MatchFactory(tournament=tournament, held=True)

    board = api.get(f"/api/v1/tournaments/{tournament.pk}/tables/").json()

    assert [t["number"] for t in board["tables"]] == [1, 2]
    assert board["tables"][0]["match"] is None
    on_two = board["tables"][1]["match"]
    assert on_two["id"] == match.pk and on_two["table"] == 2
    assert on_two["score"]["score"] == {"a": 0, "b": 3}
    assert on_two["clock"]["running"] is True
    assert [m["id"] for m in board["queue"]] == [waiting.pk]
    assert board["queue"][0]["held"] is True
    assert board["judge_calls"] == []


def test_organisers_manage_tables_through_the_api(organiser_api, scorer, tournament) -> None:
    base = f"/api/v1/tournaments/{tournament.pk}/tables/"
    assert scorer.post(base, {"count": 2}, format="json").status_code == 403
    response = organiser_api.post(base, {"count": 2}, format="json")
    assert [t["number"] for t in response.json()] == [1, 2]
    first, second = MatchFactory.create_batch(2, tournament=tournament)

    assigned = organiser_api.post(base + "assign/").json()["assigned"]
    assert [(m["id"], m["table"]) for m in assigned] == [(first.pk, 1), (second.pk, 2)]

    freed = organiser_api.post(base + "2/free/")
    assert freed.status_code == 200 and freed.json()["status"] == "ready"
    again = organiser_api.post(base + "2/free/")
    assert again.status_code == 409 and again.json()["code"] == "table_free"

    moved = organiser_api.post(
        f"/api/v1/matches/{first.pk}/table/", {"table": 2}, format="json"
    ).json()
    assert moved["table"]["number"] == 2
    called = organiser_api.post(f"/api/v1/matches/{second.pk}/table/", {"table": 2}, format="json")
    assert called.status_code == 409 and called.json()["code"] == "table_busy"
    held = organiser_api.post(f"/api/v1/matches/{second.pk}/hold/", {"held": True}, format="json")
    assert held.json()["held"] is True
    assert (
        scorer.post(
            f"/api/v1/matches/{second.pk}/hold/", {"held": False}, format="json"
        ).status_code
        == 403
    )
    assert Match.objects.get(pk=second.pk).held


def test_a_finished_match_is_not_called_to_a_table(tournament, organiser) -> None:
    TableFactory(tournament=tournament, number=1)
    done = MatchFactory(tournament=tournament, status="finished")
    with pytest.raises(MatchError) as err:
        services.match_assign_table(match=done, table=1, actor=organiser)
    assert err.value.code == "match_not_callable"
