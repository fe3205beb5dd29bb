"""CompiledQuery runs a queryset's SQL built once: it must load what the queryset loads."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from audit.models import AuditEntry
from matches import querycache
from matches.access import ROLE_FLAGS, role_flag_annotations
from matches.models import Match, MatchEvent
from matches.querycache import CompiledInsert, CompiledQuery, CompiledUpdate, WriteBatch, insert_row
from tests.matches.factories import MatchFactory, TableFactory

pytestmark = pytest.mark.django_db

WITH_RELATED = CompiledQuery(
    lambda pk: Match.objects.select_related("tournament", "player_a", "player_b", "table").filter(
        pk=pk
    )
)


def snapshot(match: Match) -> dict:
    """Every column of the match and of each related object loaded with it."""
    out = {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields}
    for name in ("tournament", "player_a", "player_b", "table"):
        field = Match._meta.get_field(name)
        assert field.is_cached(match), name  # loaded with the row, no query later
        related = getattr(match, name)
        out[name] = (
            None
            if related is None
            else {f.attname: getattr(related, f.attname) for f in related._meta.concrete_fields}
        )
    return out


def test_it_loads_what_the_queryset_loads(tournament, django_assert_num_queries) -> None:
    table = TableFactory(tournament=tournament)
    full = MatchFactory(tournament=tournament, table=table, state={"score": {"a": 1}})
    pending = MatchFactory(tournament=tournament, player_b=None)
    for match in (full, pending):
        expected = Match.objects.select_related("tournament", "player_a", "player_b", "table").get(
            pk=match.pk
        )
        with django_assert_num_queries(1):
            (found,) = WITH_RELATED.fetch(match.pk)
            assert snapshot(found) == snapshot(expected)
        assert found._state.db == "default" and not found._state.adding


def test_unknown_and_impossible_keys_find_nothing(db) -> None:
    assert WITH_RELATED.fetch(10**9) == []
    assert WITH_RELATED.fetch(2**70) == []  # beyond bigint: no database error


def test_row_locks_are_kept(tournament) -> None:
    locked = CompiledQuery(lambda pk: Match.objects.select_for_update(of=("self",)).filter(pk=pk))
    match = MatchFactory(tournament=tournament)
    with transaction.atomic():
        (found,) = locked.fetch(match.pk)
    assert found.pk == match.pk
    sql = locked._plans.__dict__["default"][1].sql  # (connection, plan)
    if connection.features.has_select_for_update:  # PostgreSQL; SQLite locks the whole file
        assert sql.endswith('FOR UPDATE OF "matches_match"')


def test_each_thread_builds_its_own(tournament) -> None:
    """A compiled statement belongs to its thread's connection."""
    match = MatchFactory(tournament=tournament)
    WITH_RELATED.fetch(match.pk)
    mine = WITH_RELATED._plans.__dict__["default"]
    seen = []

    def other() -> None:
        seen.append(WITH_RELATED._plans.__dict__.get("default"))
        connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen == [None] and WITH_RELATED._plans.__dict__["default"] is mine


def test_a_query_with_constants_and_several_arguments(tournament) -> None:
    first = MatchFactory(tournament=tournament, stage="upper")
    MatchFactory(tournament=tournament, stage="lower")
    query = CompiledQuery(
        lambda t, pk: Match.objects.filter(tournament_id=t, stage="upper", pk__gte=pk).order_by(
            "pk"
        ),
        arity=2,
    )
    assert [m.pk for m in query.fetch(tournament.pk, first.pk)] == [first.pk]
    with pytest.raises(TypeError):
        query.fetch(tournament.pk)


def test_an_insert_writes_what_save_writes(tournament, organiser, django_assert_num_queries):
    from django.db import IntegrityError

    match = MatchFactory(tournament=tournament)
    new_entry = CompiledInsert(MatchEvent)
    entry = MatchEvent(match=match, seq=1, payload={"type": "break", "ball": "ё"}, actor=organiser)
    with django_assert_num_queries(1):
        insert_row(new_entry, entry)
    assert entry.pk and entry.created_at is not None and not entry._state.adding
    stored = MatchEvent.objects.get(pk=entry.pk)
    for field in MatchEvent._meta.concrete_fields:
        assert getattr(stored, field.attname) == getattr(entry, field.attname), field.name
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_row(new_entry, MatchEvent(match=match, seq=1, payload={}))  # the log's constraint
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_an_update_writes_what_save_with_update_fields_writes(tournament) -> None:
    from django.db import DatabaseError

    save_match = CompiledUpdate(Match)
    match = MatchFactory(tournament=tournament)
    before = Match.objects.get(pk=match.pk)
    match.state = {"score": {"a": 3, "b": 1}, "name": "Пирамида"}
    match.version = 7
    match.key = "not-written"  # not among the fields
    batch = WriteBatch()
    batch.update(save_match, match, ["state", "version", "updated_at"])
    batch.send()
    stored = Match.objects.get(pk=match.pk)
    assert (stored.state, stored.version, stored.key) == (match.state, 7, before.key)
    assert stored.updated_at > before.updated_at  # auto_now stamps, as in save()
    match.pk = 10**9
    with pytest.raises(DatabaseError):
        batch.update(save_match, match, ["version"])
        batch.send()


def test_annotations_and_a_repeated_argument(tournament, organiser, referee) -> None:
    """The role flags of a user come with the match: the user's id is used three times."""
    match = MatchFactory(tournament=tournament)
    query = CompiledQuery(
        lambda pk, user_id: Match.objects.annotate(**role_flag_annotations(user_id)).filter(pk=pk),
        arity=2,
    )
    flags = {}
    for user in (organiser, referee):
        (found,) = query.fetch(match.pk, user.pk)
        flags[user.username] = tuple(getattr(found, name) for name in ROLE_FLAGS)
    assert flags[organiser.username][0] is True
    assert flags[referee.username][:2] == (False, True)


@pytest.fixture(params=["together", "one_by_one"])
def batch_mode(request, monkeypatch):
    """PostgreSQL sends a batch as one statement; other databases one statement per row (run
    here by making the connection look like another database's)."""
    if request.param == "one_by_one" or connection.vendor != "postgresql":
        monkeypatch.setattr(connection, "vendor", "other")
        return "one_by_one"
    return request.param


def test_a_batch_writes_what_the_saves_write(
    tournament, organiser, batch_mode, django_assert_num_queries
) -> None:
    match = MatchFactory(tournament=tournament)
    before = Match.objects.get(pk=match.pk)
    batch = WriteBatch()
    entry = batch.insert(CompiledInsert(MatchEvent), MatchEvent(match=match, seq=1, payload={}))
    assert entry.created_at is not None  # stamped when queued: the caller may render it
    match.version, match.state = 1, {"score": {"a": 1, "b": 0}}
    batch.update(CompiledUpdate(Match), match, ["state", "version", "updated_at"])
    note = batch.insert(
        CompiledInsert(AuditEntry),
        AuditEntry(match=match, actor=organiser, action="t", data={"ё": [1, None]}),
    )
    with django_assert_num_queries(1 if batch_mode == "together" else 3):
        batch.send()
    with django_assert_num_queries(0):
        batch.send()  # nothing left to send

    assert entry.pk and note.pk and not entry._state.adding and not note._state.adding
    stored = MatchEvent.objects.get(pk=entry.pk)
    assert (stored.match_id, stored.seq, stored.created_at) == (match.pk, 1, entry.created_at)
    assert AuditEntry.objects.get(pk=note.pk).data == {"ё": [1, None]}
    saved = Match.objects.get(pk=match.pk)
    assert (saved.version, saved.state) == (1, match.state)
    assert saved.updated_at > before.updated_at


def test_a_refused_write_raises_its_refusal_and_nothing_lands(tournament, batch_mode) -> None:
    match = MatchFactory(tournament=tournament)
    MatchEvent.objects.create(match=match, seq=1, payload={})

    class Refused(Exception):
        pass

    batch = WriteBatch()
    match.version = 5
    batch.update(CompiledUpdate(Match), match, ["version"])
    batch.insert(
        CompiledInsert(MatchEvent), MatchEvent(match=match, seq=1, payload={}), refused=Refused
    )
    with pytest.raises(Refused), transaction.atomic():
        batch.send()
    assert Match.objects.get(pk=match.pk).version == 0
    assert MatchEvent.objects.filter(match=match).count() == 1

    unrefused = WriteBatch()
    unrefused.insert(CompiledInsert(MatchEvent), MatchEvent(match=match, seq=1, payload={}))
    unrefused.update(CompiledUpdate(Match), match, ["version"])
    with pytest.raises(IntegrityError), transaction.atomic():
        unrefused.send()


def test_a_batched_update_of_no_row_fails_as_save_does(tournament, batch_mode) -> None:
    from django.db import DatabaseError

    match = MatchFactory(tournament=tournament)
    gone = MatchFactory.build(pk=10**9, tournament=tournament)
    batch = WriteBatch()
    batch.insert(CompiledInsert(MatchEvent), MatchEvent(match=match, seq=1, payload={}))
    batch.update(CompiledUpdate(Match), gone, ["version"])
    with pytest.raises(DatabaseError), transaction.atomic():
        batch.send()
    assert not MatchEvent.objects.filter(match=match).exists()


def test_a_batch_refuses_one_row_queued_twice(tournament, batch_mode) -> None:
    """PostgreSQL runs the batch's WITH on one snapshot: a second update of the same row would
    report 0 rows there (1 elsewhere). Refused when queued, on every backend; after send() the
    row may be queued again."""
    save_match = CompiledUpdate(Match)
    match = MatchFactory(tournament=tournament)
    batch = WriteBatch()
    batch.update(save_match, match, ["version"])
    with pytest.raises(ValueError, match="already queued"):
        batch.update(save_match, match, ["state"])
    batch.send()
    match.version = 5
    batch.update(save_match, match, ["version"])
    batch.send()
    assert Match.objects.get(pk=match.pk).version == 5


def test_the_compiled_paths_were_verified_on_this_django_minor_version() -> None:
    import django

    assert django.VERSION[:2] == querycache.VERIFIED_DJANGO, (
        f"Django {django.VERSION[:2]} is not the version matches/querycache.py was verified on "
        f"({querycache.VERIFIED_DJANGO}). It reads private ORM internals: re-check "
        "get_related_populators, klass_info, returning_params and the compilers' setup against "
        "the release notes and source, run tests/foundation/test_querycache.py and "
        "tests/performance, then move VERIFIED_DJANGO."
    )


def test_a_batch_refuses_an_update_of_a_row_it_inserts(tournament, batch_mode) -> None:
    """The row's key is not known before send(), and on PostgreSQL the update would not see
    the insert: its fields are to be set before it is queued."""
    match = MatchFactory(tournament=tournament)
    entry = MatchEvent(match=match, seq=1, payload={})
    batch = WriteBatch()
    batch.insert(CompiledInsert(MatchEvent), entry)
    with pytest.raises(querycache.QueuedTwice, match="queued for insertion"):
        batch.update(CompiledUpdate(MatchEvent), entry, ["undone"])
    with pytest.raises(querycache.QueuedTwice, match="already queued"):
        batch.insert(CompiledInsert(MatchEvent), entry)
    batch.send()
    assert MatchEvent.objects.filter(match=match).count() == 1
    entry.undone = True
    batch.update(CompiledUpdate(MatchEvent), entry, ["undone"])  # sent: a row like any other
    batch.send()
    assert MatchEvent.objects.get(pk=entry.pk).undone
