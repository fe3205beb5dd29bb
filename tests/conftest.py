"""Fixtures shared by the whole suite. Imports of Django code stay inside fixtures so that the
pure test folders (rules, algorithms) also run without Django."""

from __future__ import annotations

import os
from typing import Any

import pytest

PASSWORD = "correct-horse-battery"

# What makes a test more than a fast one: a database, a browser, real processes, or length.
_HEAVY_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "live_server",
        "django_db_setup",
        "require_postgres",
        "require_redis",
    }
)
_HEAVY_MARKERS = ("django_db", "services", "browser", "slow")


def _in_group(item: pytest.Item, group: str) -> None:
    """What xdist's loadgroup does with an xdist_group marker: the scheduler groups by a
    "@group" suffix of the node id. pytest-xdist 3.8 writes `item._nodeid`, which pytest 9 no
    longer reads (the id moved to `item._id`), so the marker alone groups nothing there."""
    if not hasattr(item, "_id") or item.nodeid.endswith(f"@{group}"):
        return
    from _pytest.nodeid import coerce_node_id

    item._id = coerce_node_id(f"{item.nodeid}@{group}")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadgroup`, with the tests of one file kept together on one worker: modules
    build their world once (module-scoped fixtures in a transaction), and a transactional test
    of another module run in between on that worker would flush it away."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FilesAndGroups(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            group = nodeid.rpartition("@")[2] if nodeid.rfind("@") > nodeid.rfind("]") else ""
            return f"@{group}" if group else super()._split_scope(nodeid)

    return FilesAndGroups(config, log)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast",
        action="store_true",
        help="run only the tests that need no database, browser or service and are not slow "
        "(make check)",
    )
    parser.addoption(
        "--heavy",
        action="store_true",
        help="run only the tests --fast leaves out (CI: make check has run the fast ones)",
    )


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Tests that start Celery workers, beat or gunicorn, flush Redis or load the machine run
    # one after another on one xdist worker (`--dist loadgroup`): their timing claims then
    # compete with ordinary tests only, never with each other.
    grouping = getattr(config.option, "loadgroup", False)  # set in xdist workers
    for item in items:
        if item.get_closest_marker("services") is not None:
            item.add_marker(pytest.mark.xdist_group("services"))
            if grouping:
                _in_group(item, "services")
    if not (config.getoption("--fast") or config.getoption("--heavy")):
        return
    fast, heavy = [], []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        marked = any(item.get_closest_marker(name) for name in _HEAVY_MARKERS)
        (heavy if marked or fixtures & _HEAVY_FIXTURES else fast).append(item)
    kept, left_out = (fast, heavy) if config.getoption("--fast") else (heavy, fast)
    items[:] = kept
    config.hook.pytest_deselected(items=left_out)


def require_service(name: str) -> None:
    """Skip when a service is not configured, or fail when LUZA_REQUIRE_SERVICES is on (CI)."""
    from django.conf import settings

    if settings.LUZA_REQUIRE_SERVICES:
        pytest.fail(f"{name} is required (LUZA_REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"{name} not configured")


@pytest.fixture
def require_postgres() -> None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        require_service("PostgreSQL (DATABASE_URL)")


@pytest.fixture
def require_redis() -> None:
    if not os.environ.get("REDIS_URL"):
        require_service("Redis (REDIS_URL)")


# The fixtures below import the factories (and DRF, the roles) when they run, not at the top:
# this conftest is loaded for every folder, and the pure ones (tests/rules, tests/algorithms)
# import nothing of Django, its models or the project's apps.


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def organiser(db):
    from tests.factories import OrganiserFactory

    return OrganiserFactory()


@pytest.fixture
def referee(db):
    from tests.factories import RefereeFactory

    return RefereeFactory()


@pytest.fixture
def user(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def tournament(db, organiser, referee):
    from tests.factories import TournamentFactory

    return TournamentFactory(organisers=[organiser], referees=[referee])


@pytest.fixture
def players(db):
    from tests.factories import PlayerFactory

    return PlayerFactory.create_batch(8)


@pytest.fixture(autouse=True)
def _roles(request):
    """The role groups exist in every database test, even after another module's transactional
    test flushed the tables (and with them what the data migration made)."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    if marker is None and not names & {"db", "transactional_db", "live_server"}:
        return
    transactional = bool(marker and marker.kwargs.get("transaction")) or bool(
        names & {"transactional_db", "live_server"}
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    from tournaments.roles import roles_ensure  # when it runs: see the note above the fixtures

    roles_ensure()
