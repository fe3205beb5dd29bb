"""Paper a chief judge signs, read as PDFs in Russian: a match sheet per discipline (free
pyramid to N balls: racks and balls; a race of frames: «до N побед»; Duplex: three frames with
plus and minus points), the final protocol with the rules it was played under, dates with
«г.», signature lines with initials, names typed in capitals in title case, the Russian
alphabetical order, and the wall bracket filling its sheet."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from tests.web.helpers import drawn_tournament, finish_tournament, first_ready
from tests.web.test_glossary import RETIRED
from tournaments.names import collation_key, paper_name, signature_name
from tournaments.presets import preset_fields
from tournaments.printouts import layout

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(" ".join(p.extract_text() for p in reader.pages).split())


def _russian_pdf(client, url: str) -> str:
    text = _text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    retired = [word for word, pattern in RETIRED if pattern.search(text)]
    assert not retired, retired
    return text


def _sheet(client, tournament) -> str:
    match = first_ready(tournament)
    return _russian_pdf(client, f"/panel/m/{match.pk}/print/sheet.pdf")


@pytest.fixture
def ru(settings):
    settings.LANGUAGE_CODE = "ru"
    with translation.override("ru"):
        yield


def test_free_pyramid_to_30_balls_has_racks_and_balls(ru, organiser_client, organiser):
    t = drawn_tournament(organiser, 2, format="single")
    text = _sheet(organiser_client, t)
    assert "Дистанция: до 30 шаров" in text.replace("До", "до")
    assert "Пирамида" in text and "Итого шаров" in text
    assert text.count("Итого") == 1  # the total once, at the end
    assert "5 декабря 2026 г." in text


def test_a_race_of_frames_says_to_n_wins(ru, organiser_client, organiser):
    fields = preset_fields("llb_frames_8")
    fields["format"] = "single"
    t = drawn_tournament(organiser, 2, **fields)
    text = _sheet(organiser_client, t)
    assert "Дистанция: до 3 побед в партиях, партия до 8 шаров" in text.replace("До", "до")
    assert "Выиграно партий" in text and "Пирамида" not in text


def test_duplex_has_three_frames_with_plus_and_minus_points(ru, organiser_client, organiser):
    t = drawn_tournament(
        organiser,
        2,
        discipline="duplex",
        ruleset={"discipline": "duplex"},
        handicap_scheme="none",
        format="single",
    )
    text = _sheet(organiser_client, t)
    assert "Дистанция: Игра из трёх партий (плюсовые и минусовые очки)" in text
    assert "Плюсовые очки" in text and "Минусовые очки" in text
    assert "После двух партий" in text and "Итоговые очки" in text
    assert "Фора" not in text  # Duplex has no head start


def test_the_final_protocol_states_the_rules_signatures_and_names(ru, organiser_client, organiser):
    t = drawn_tournament(
        organiser, 4, format="single", chief_judge="Сергеев Андрей Викторович", entry_fee="500"
    )
    shouted = first_ready(t).player_a
    shouted.name = "ЁЛКИН-ПАЛКИН ИВАН"
    shouted.save()
    finish_tournament(t, organiser)
    text = _russian_pdf(organiser_client, f"/panel/t/{t.pk}/print/protocol.pdf")
    assert "Дисциплина Свободная пирамида" in text
    assert "Дистанция до 30 шаров" in text.replace("До", "до")
    assert "Система проведения Олимпийская система" in text
    assert "Дата 5 декабря 2026 г." in text and "Клуб «Луза»" in text
    assert "Главный судья А. В. Сергеев" in text and "Главный секретарь" in text
    assert "Ёлкин-Палкин Иван" in text and "ЁЛКИН" not in text


def test_the_diploma_names_the_place_and_the_judge_with_initials(ru, organiser_client, organiser):
    t = drawn_tournament(organiser, 4, format="single", chief_judge="СЕРГЕЕВ АНДРЕЙ ВИКТОРОВИЧ")
    t.diploma_degree = True
    t.save()
    finish_tournament(t, organiser)
    response = organiser_client.get(f"/panel/t/{t.pk}/diplomas/", HTTP_ACCEPT_LANGUAGE="ru")
    page = response.content.decode()
    assert "I степени" in page and "за I место" in page
    assert "А. В. Сергеев" in page and "5 декабря 2026 г." in page


def test_the_wall_bracket_fills_its_sheet(ru, organiser_client, organiser):
    t = drawn_tournament(organiser, 8, format="single")
    text = _russian_pdf(organiser_client, f"/panel/t/{t.pk}/print/bracket.pdf")
    assert "5 декабря 2026 г." in text
    for paper, rows in (("a4", 4), ("a4", 16), ("a3", 32)):
        filled = layout.fill(paper, rows)
        assert filled["row_mm"] * rows == pytest.approx(layout.BODY_MM[paper], abs=0.5)
    assert layout.fill("a4", 4)["font_pt"] > layout.fill("a4", 16)["font_pt"] >= layout.BASE_PT


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("ПЕТРОВ-ВОДКИН КУЗЬМА", "Петров-Водкин Кузьма"),
        ("ёлкин иван", "ёлкин иван"),  # typed in lower case: as typed
        ("McDonald Ian", "McDonald Ian"),
    ],
)
def test_names_typed_in_capitals_read_in_title_case(typed: str, shown: str) -> None:
    assert paper_name(typed) == shown


@pytest.mark.parametrize(
    ("name", "signed"),
    [
        ("Сергеев Андрей Викторович", "А. В. Сергеев"),
        ("Сергеев А. В.", "А. В. Сергеев"),
        ("Сергеев А.В.", "А. В. Сергеев"),
        ("А. В. Сергеев", "А. В. Сергеев"),
        ("СЕРГЕЕВ АНДРЕЙ", "Сергеев Андрей"),  # which is the surname? as typed
        ("Сергеев", "Сергеев"),
    ],
)
def test_a_signature_line_puts_the_initials_first(name: str, signed: str) -> None:
    assert signature_name(name) == signed


def test_russian_alphabetical_order_puts_yo_with_ye() -> None:
    names = ["Ёлкин", "Абрамов", "Едрёнов", "Жуков", "елисеев", "Ершов"]
    assert sorted(names, key=collation_key) == [
        "Абрамов",
        "Едрёнов",
        "елисеев",
        "Ёлкин",
        "Ершов",
        "Жуков",
    ]


def test_the_rating_list_sorts_yo_among_ye(client) -> None:
    from tests.factories import PlayerFactory
    from tournaments.selectors.players import player_list

    for name in ("Ёлкин Иван", "Абрамов Пётр", "Жуков Олег", "Ершов Лев"):
        PlayerFactory(name=name)
    assert [p.name for p in player_list()] == [
        "Абрамов Пётр",
        "Ёлкин Иван",
        "Ершов Лев",
        "Жуков Олег",
    ]


def test_a_match_sheet_is_the_discipline_s_own() -> None:
    from rules.registry import find

    duplex, free = find("duplex"), find("free_pyramid")
    assert duplex is not None and free is not None
    assert duplex.paper_sheet({"discipline": "duplex"}) == "duplex"
    assert free.paper_sheet({"balls_to_win": 30}) == "racks"
    assert free.paper_sheet({"balls_to_win": 8, "frames_to_win": 3}) == "frames"
    # Every discipline's sheet has its template (a new one plugs its own in).
    from django.template.loader import get_template

    from rules.registry import disciplines

    for d in disciplines():
        for ruleset in ({"discipline": d.name}, {"discipline": d.name, "frames_to_win": 3}):
            get_template(f"print/sheet/{d.paper_sheet(ruleset)}.html")
