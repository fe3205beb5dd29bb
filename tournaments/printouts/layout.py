"""The bracket's print layout: which paper, and how a stage is cut into sheets. Plain data
in, plain data out (no Django), so it is tested without a database.

Clubs hang the bracket on the wall: A4 landscape is readable up to 32 players (16 matches in
the first column), A3 landscape up to 128 with 32 matches a column; a bigger stage is cut
into parts of the bracket (its top and bottom halves...), the last rounds on a sheet of their
own, as clubs do with 64×32 sheets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

A4_PLAYERS = 32
A4_COLUMN = 16
A3_COLUMN = 32
# The bracket fills its sheet (a wall sheet a third full is unreadable from a step away): the
# page's height less its margins (static/css/print.css @page a4l/a3l), the sheet's heading and
# the rounds' titles, shared by the rows; the type grows with the rows, up to a limit.
BODY_MM = {"a4": 210 - 14 - 16, "a3": 297 - 20 - 18}
MATCH_LINES_MM = 9.0  # a match's box at the base size: its number and two players
BASE_PT = 7.5
MAX_SCALE = 2.2


def paper_for(players: int) -> str:
    return "a4" if players <= A4_PLAYERS else "a3"


def column_limit(paper: str) -> int:
    return A4_COLUMN if paper == "a4" else A3_COLUMN


def _parts_needed(first_column: int, limit: int) -> int:
    parts = 1
    while first_column > limit * parts:
        parts *= 2
    return parts


def stage_sheets(stage: Mapping[str, Any], paper: str) -> list[dict[str, Any]]:
    """One stage as sheets: {"title", "part", "parts", "rounds": [{"title", "matches"}]}.
    A stage that fits is one sheet; else each part takes its slice of every round with at
    least as many matches as parts, and the later rounds make a sheet of their own."""
    rounds: Sequence[Mapping[str, Any]] = stage["rounds"]
    if not rounds:
        return []
    limit = column_limit(paper)
    widest = max(len(r["matches"]) for r in rounds)
    parts = _parts_needed(widest, limit)
    if parts == 1:
        return [{"title": stage["title"], "part": 1, "parts": 1, "rounds": list(rounds)}]
    sheets = []
    split = [r for r in rounds if len(r["matches"]) >= parts]
    rest = [r for r in rounds if len(r["matches"]) < parts]
    total = parts + (1 if rest else 0)
    for part in range(parts):
        cut = []
        for r in split:
            size = len(r["matches"]) // parts
            cut.append({**r, "matches": list(r["matches"][part * size : (part + 1) * size])})
        sheets.append({"title": stage["title"], "part": part + 1, "parts": total, "rounds": cut})
    if rest:
        sheets.append({"title": stage["title"], "part": total, "parts": total, "rounds": rest})
    return sheets


def bracket_sheets(stages: Sequence[Mapping[str, Any]], players: int) -> tuple[str, list[Any]]:
    """The paper and every sheet of the bracket, stage after stage."""
    paper = paper_for(players)
    sheets = []
    for stage in stages:
        for sheet in stage_sheets(stage, paper):
            sheet["rows"] = table_rows(sheet["rounds"])
            sheet.update(fill(paper, len(sheet["rows"])))
            sheets.append(sheet)
    return paper, sheets


def fill(paper: str, rows: int) -> dict[str, float]:
    """How a sheet of ``rows`` rows fills its paper: each row's height (mm) and the type's
    size (pt), larger when there are few rows."""
    row_mm = BODY_MM[paper] / max(rows, 1)
    scale = min(MAX_SCALE, max(1.0, (row_mm - 1.0) / MATCH_LINES_MM))
    return {"row_mm": round(row_mm, 2), "font_pt": round(BASE_PT * scale, 2)}


def table_rows(rounds: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """A sheet's rounds as the rows of a table, as brackets are drawn on paper: the widest
    round has a row per match, and a match of a round with half as many spans two rows, so it
    sits between the two it follows. Each row lists its cells left to right: {"match", "span"}
    or {"match": None, "span": 1} for an empty cell; a cell covered by a span above is left out."""
    widest = max((len(r["matches"]) for r in rounds), default=0)
    rows: list[list[dict[str, Any]]] = []
    for i in range(widest):
        row = []
        for r in rounds:
            count = len(r["matches"])
            span = widest // count if count and widest % count == 0 else 1
            if i % span:
                continue  # covered by the match above
            index = i // span
            match = r["matches"][index] if index < count else None
            row.append({"match": match, "span": span if match is not None else 1})
        rows.append(row)
    return rows
