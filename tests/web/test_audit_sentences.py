"""The audit log reads as sentences with names and match numbers; raw data only behind a
details toggle; filters by match, person and kind."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from audit.models import AuditEntry
from tests.web.helpers import first_ready, play_to_win
from tournaments import services
from tournaments.audit_text import audit_rows
from tournaments.match_labels import match_label

pytestmark = pytest.mark.django_db


@pytest.fixture
def corrected(drawn, referee, organiser):
    referee.first_name = "Иванов"
    referee.save()
    match = play_to_win(first_ready(drawn), "a", referee)
    services.match_correct_result(
        match=match, winner_slot="b", score_a=7, score_b=30, reason="ошибка ввода", actor=referee
    )
    match.refresh_from_db()
    return match


def test_a_correction_reads_as_a_sentence_in_russian(corrected, drawn):
    entry = AuditEntry.objects.get(match=corrected, action="match_correct_result")
    with translation.override("ru"):
        [row] = audit_rows([entry], drawn)
    with translation.override("ru"):
        label = match_label(corrected.key)  # «О1-1», as a club writes it
    # The match's number after a declined noun: «результат матча «О1-1»».
    assert row["text"].startswith(f"Судья Иванов: исправлен результат матча «{label}»")
    assert "было 30:0" in row["text"] or "было 30:" in row["text"]
    assert "стало 7:30" in row["text"]
    assert corrected.player_b.name in row["text"] and "ошибка ввода" in row["text"]


def test_the_log_page_shows_sentences_and_hides_the_raw_data(organiser_client, corrected, drawn):
    page = organiser_client.get(f"/panel/t/{drawn.pk}/audit/").content.decode()
    text = re.sub(r"<details.*?</details>", "", page, flags=re.S)
    assert '"winner"' not in text and "&quot;winner&quot;" not in text  # no raw JSON outside
    with translation.override("en"):
        label = match_label(corrected.key)
    assert f"the result of match {label} is corrected" in page
    assert "<details" in page


def test_filters_by_match_person_and_kind(organiser_client, corrected, drawn):
    url = f"/panel/t/{drawn.pk}/audit/"
    by_kind = organiser_client.get(url, {"kind": "results"}).context["page"].object_list
    assert {e.action for e in by_kind} <= {
        "match.finished",
        "match.walkover",
        "match_correct_result",
        "match.clock_expired",
    }
    assert any(e.action == "match_correct_result" for e in by_kind)
    by_match = organiser_client.get(url, {"match": corrected.key}).context["page"].object_list
    assert by_match and all(e.match_id == corrected.pk for e in by_match)
    name = corrected.player_a.name.split()[0]
    by_person = organiser_client.get(url, {"person": name}).context["page"].object_list
    assert by_person
    nobody = organiser_client.get(url, {"person": "Нет такого"}).context["page"].object_list
    assert not list(nobody)


def test_every_kind_of_entry_reads_without_raw_ids(organiser_client, drawn, organiser, corrected):
    rows = audit_rows(AuditEntry.objects.filter(tournament=drawn), drawn)
    assert rows
    for row in rows:
        assert "{" not in row["text"] and "None" not in row["text"], row["text"]
