"""How names are compared: one folded form for search and for spotting the same person twice.

Plain functions, no Django: lower case, "ё" read as "е", runs of spaces (and hyphens' spacing)
collapsed, so that "ФЁДОРОВ  Иван" and "федоров иван" are one name.
"""

from __future__ import annotations


def fold_name(value: str) -> str:
    """Lower case, ё → е, words separated by single spaces."""
    return " ".join(str(value or "").lower().replace("ё", "е").split())


def fold_words(value: str) -> list[str]:
    """The folded words of a search, each compared with the start of a word of the name."""
    return fold_name(value).split()
