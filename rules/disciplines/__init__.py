"""The disciplines Luza plays, registered when ``rules`` is imported (the first one is the
default where a ruleset names none). A new discipline: its engine module, its class here
beside these, its translations and its referee-form renderer (docs/rules-engine.md)."""

from __future__ import annotations

from rules.disciplines.duplex import Duplex
from rules.disciplines.free_pyramid import FreePyramid
from rules.registry import register

FREE_PYRAMID = register(FreePyramid())
DUPLEX = register(Duplex())

__all__ = ["DUPLEX", "FREE_PYRAMID", "Duplex", "FreePyramid"]
