"""A self-scoring player's form (phone): conceding is for oneself only, and while the judge is
called the form says the judge is on the way and offers nothing to tap."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.browser.conftest import PHONE
from tests.browser.referee_form import refereed_match
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match(organiser, referee):
    m = refereed_match(
        organiser,
        referee,
        {"discipline": "free_pyramid", "balls_to_win": 8},
        self_scoring=True,
    )
    for player in (m.player_a, m.player_b):
        player.user = UserFactory()
        player.save(update_fields=["user"])
    return Match.objects.get(pk=m.pk)


def test_a_player_concedes_only_for_himself_and_waits_for_the_judge(
    open_page, live_server, match, referee
):
    page = open_page(PHONE, user=match.player_b.user)
    page.goto(f"{live_server.url}/m/{match.pk}/score/")
    page.wait_for_selector("[data-awaiting=break]")

    page.click("[data-action=forfeit]")
    assert page.locator("[data-action=concede-b]").count() == 1
    assert page.locator("[data-action=concede-a]").count() == 0
    assert page.inner_text("[data-action=concede-b]") == "Сдать матч"

    with page.expect_response(
        lambda r: r.url.split("?")[0].endswith("/judge/") and r.status == 200
    ):
        page.click("[data-action=judge-call]")
    page.wait_for_selector("[data-judge-wait]")
    assert "Судья идёт к столу" in page.inner_text("[data-judge-wait]")
    assert page.locator("[data-action=break]").count() == 0
    assert page.locator("[data-action=forfeit]").count() == 0
    assert page.locator("[data-action=undo]").is_disabled()

    # The judge resolves the call: the player's form offers play again at its next poll.
    judge = APIClient()
    judge.force_authenticate(referee)
    judge.post(f"/api/v1/matches/{match.pk}/judge/", {"action": "resolve"}, format="json")
    page.reload()
    page.wait_for_selector("[data-awaiting=break]")
    assert page.locator("[data-judge-wait]").count() == 0
    assert not [e for e in page.errors if not re.search(r"40[13]", e)]
