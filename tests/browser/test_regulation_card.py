"""The «Регламент» card reads as text at every width: no value squeezed to a letter a line
(a max-content label column did that at 1280–1920 px)."""

from __future__ import annotations

import pytest

from tests.web.helpers import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [320, 1280, 1600, 1920])
def test_the_regulation_card_wraps_as_text(open_page, live_server, organiser, width):
    t = make_tournament(organiser, regulation_text="Форма одежды: тёмные брюки. " * 8)
    for url in (f"/t/{t.pk}/", f"/panel/t/{t.pk}/"):
        page = open_page({"width": width, "height": 900}, user=organiser)
        page.goto(live_server.url + url)
        widths = page.eval_on_selector_all(
            "dl[data-regulation] dd", "els => els.map(e => e.getBoundingClientRect().width)"
        )
        assert widths and min(widths) >= 120, (url, width, widths)
        height = page.eval_on_selector(
            "dl[data-regulation]", "e => e.getBoundingClientRect().height"
        )
        assert height < 1600, (url, width, height)
