"""How names are compared and shown: one folded form for search and for spotting the same
person twice; the name as paper shows it, the signature line, the Russian alphabetical order.

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


def paper_name(value: str) -> str:
    """A name as paper shows it: typed in capitals («ПЕТРОВ-ВОДКИН ИВАН») it reads in title
    case («Петров-Водкин Иван»); typed any other way it is left as typed."""
    text = " ".join(str(value or "").split())
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2 or not all(c.isupper() for c in letters):
        return text
    return "-".join(
        " ".join(word[:1].upper() + word[1:].lower() for word in part.split(" "))
        for part in text.split("-")
    )


def signature_name(value: str) -> str:
    """A name as a signature line reads it, initials first: «Сергеев Андрей Викторович» and
    «Сергеев А. В.» -> «А. В. Сергеев». Two full words («Сергей Сидоров» or «Сидоров Сергей»)
    do not say which is the surname: left as typed, as is one word or initials already first."""
    parts = paper_name(value).split()
    if len(parts) < 2 or parts[0].endswith("."):
        return " ".join(parts)
    rest = parts[1:]
    has_initials = any("." in part for part in rest)
    if not has_initials and len(parts) != 3:
        return " ".join(parts)
    initials = []
    for part in rest:
        for piece in part.replace(".", ". ").split():
            initials.append(piece if piece.endswith(".") else f"{piece[:1].upper()}.")
    return " ".join([*initials, parts[0]])


def collation_key(value: str) -> tuple[str, str]:
    """Russian alphabetical order: case ignored, «Ё» with «Е» (after it on a tie), so
    «Ёлкин» sorts among the Е, not before «Абрамов»."""
    folded = str(value or "").lower()
    return folded.replace("ё", "е"), folded.replace("ё", "е\x00")
