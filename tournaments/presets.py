"""Tournament presets: data only. A preset fills a new tournament's settings; anything the
organiser sends alongside it wins, and the result goes through the same validation.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["PRESETS", "Preset", "preset_fields"]


@dataclass(frozen=True)
class Preset:
    slug: str
    title: str | Promise
    description: str | Promise
    fields: dict[str, Any] = field(default_factory=dict)


_SHARES_45_30_25 = ["45", "30", "25"]

PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        Preset(
            slug="free_pyramid_30",
            title=_("Free pyramid to 30 with continuation"),
            description=_(
                # xgettext:no-python-format
                "The one-day regulation: race to 30 balls with continuation, penalty from the "
                "shelf, direct call, strict break, 80 minutes net time, handicap 2 balls per 50 "
                "rating points, double elimination, 70% of fees to prizes split 45/30/25."
            ),
            fields={
                "discipline": "free_pyramid",
                "ruleset": {
                    "discipline": "free_pyramid",
                    "balls_to_win": 30,
                    "frames_to_win": 1,
                    "continuation": True,
                    "penalty": "shelf_to_table",
                    "direct_call": True,
                    "strict_break": True,
                },
                "stage_rules": {},
                "time_limit_minutes": 80,
                "format": "double",
                "grand_final": "single",
                "third_place": "shared",
                "handicap_scheme": "race_2_per_50",
                "pool_percent": "70",
                "place_shares": _SHARES_45_30_25,
            },
        ),
        Preset(
            slug="duplex",
            title=_("Duplex"),
            description=_(
                # xgettext:no-python-format
                "Duplex games of three frames, no handicap (the discipline has no head start) "
                "and no time limit, double elimination, 70% of fees split 45/30/25."
            ),
            fields={
                "discipline": "duplex",
                "ruleset": {"discipline": "duplex"},
                "stage_rules": {},
                "time_limit_minutes": None,
                "format": "double",
                "grand_final": "single",
                "third_place": "shared",
                "handicap_scheme": "none",
                "pool_percent": "70",
                "place_shares": _SHARES_45_30_25,
            },
        ),
        Preset(
            slug="llb_frames_8",
            title=_("LLB-style frames to 8"),
            description=_(
                "Free pyramid frames to 8 balls under the general rules, no continuation, "
                "upper bracket and play-off to 3 frames, lower bracket to 2, LLB handicap "
                "scheme 1, no time limit, double elimination."
            ),
            fields={
                "discipline": "free_pyramid",
                "ruleset": {
                    "discipline": "free_pyramid",
                    "balls_to_win": 8,
                    "frames_to_win": 2,
                    "continuation": False,
                    "penalty": "opponent_takes",
                    "direct_call": False,
                    "strict_break": False,
                },
                "stage_rules": {
                    "upper": {"frames_to_win": 3},
                    "lower": {"frames_to_win": 2},
                    "playoff": {"frames_to_win": 3},
                },
                "time_limit_minutes": None,
                "format": "double",
                "grand_final": "single",
                "third_place": "shared",
                "handicap_scheme": "llb_1",
                "pool_percent": "70",
                "place_shares": _SHARES_45_30_25,
            },
        ),
    )
}


def preset_fields(slug: str) -> dict[str, Any]:
    """A fresh copy of the preset's settings (``KeyError`` for an unknown slug)."""
    return copy.deepcopy(PRESETS[slug].fields)
