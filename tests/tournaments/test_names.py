"""The folded form of a name: what search and the duplicate check compare (no database)."""

from __future__ import annotations

import pytest

from tournaments.names import fold_name, fold_words


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Фёдоров Иван", "федоров иван"),
        ("  ФЁДОРОВ\tИван  ", "федоров иван"),
        ("Ёлкин   Семён", "елкин семен"),
        ("Петров-Водкин Кузьма", "петров-водкин кузьма"),
        ("", ""),
    ],
)
def test_fold_name(raw: str, folded: str) -> None:
    assert fold_name(raw) == folded


def test_fold_words_splits_a_search() -> None:
    assert fold_words(" Михаил  ПЁТР ") == ["михаил", "петр"]
    assert fold_words("") == []
