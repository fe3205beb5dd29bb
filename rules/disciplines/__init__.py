"""The disciplines Luza plays, registered when ``rules`` is imported (the first one is the
default where a ruleset names none). A new discipline: its engine module, its class here
beside these, its translations and its referee-form renderer (docs/rules-engine.md)."""

from __future__ import annotations

from rules.disciplines.classic_pyramid import ClassicPyramid
from rules.disciplines.combined_pyramid import CombinedPyramid
from rules.disciplines.duplex import Duplex
from rules.disciplines.dynamic_pyramid import DynamicPyramid
from rules.disciplines.free_pyramid import FreePyramid
from rules.registry import register

FREE_PYRAMID = register(FreePyramid())
DUPLEX = register(Duplex())
COMBINED_PYRAMID = register(CombinedPyramid())
DYNAMIC_PYRAMID = register(DynamicPyramid())
CLASSIC_PYRAMID = register(ClassicPyramid())

__all__ = [
    "CLASSIC_PYRAMID",
    "COMBINED_PYRAMID",
    "DUPLEX",
    "DYNAMIC_PYRAMID",
    "FREE_PYRAMID",
    "ClassicPyramid",
    "CombinedPyramid",
    "Duplex",
    "DynamicPyramid",
    "FreePyramid",
]
