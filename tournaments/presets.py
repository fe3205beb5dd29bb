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


def _games_fields(discipline: str, ruleset: dict[str, Any]) -> dict[str, Any]:
    """The settings of the coloured-cue-ball games' presets beside their rules."""
    return {
        "discipline": discipline,
        "ruleset": {"discipline": discipline, **ruleset},
        "stage_rules": {},
        "time_limit_minutes": None,
        "format": "double",
        "grand_final": "single",
        "third_place": "shared",
        "handicap_scheme": "none",
        "pool_percent": "70",
        "place_shares": _SHARES_45_30_25,
    }


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
        Preset(
            slug="combined_pyramid",
            title=_("Combined pyramid to 8"),
            description=_(
                "Combined (Moscow) pyramid to the official rules: frames to 8 points, matches "
                "to 2 frames won, every ball pocketed counts, after a «svoyak» the striker "
                "takes a ball and plays from hand from the house; no handicap, no time limit, "
                "double elimination."
            ),
            fields=_games_fields("combined_pyramid", {"balls_to_win": 8, "frames_to_win": 2}),
        ),
        Preset(
            slug="combined_pyramid_house",
            title=_("Combined pyramid, club rules: direct call"),
            description=_(
                "Combined pyramid as clubs announce it: «прямой заказ» (only balls pocketed "
                "directly count, fools are spotted) and the ball after a «svoyak» taken off by "
                "the opponent; frames to 8, matches to 2 frames won, double elimination."
            ),
            fields=_games_fields(
                "combined_pyramid",
                {
                    "balls_to_win": 8,
                    "frames_to_win": 2,
                    "direct_call": True,
                    "svoyak_taken_by": "opponent",
                },
            ),
        ),
        Preset(
            slug="dynamic_pyramid",
            title=_("Dynamic pyramid to 8"),
            description=_(
                "Dynamic (Nevskaya) pyramid: frames to 8 points, matches to 2 frames won, after "
                "a «svoyak» the cue ball in hand anywhere on the table; no handicap, no time "
                "limit, double elimination."
            ),
            fields=_games_fields("dynamic_pyramid", {"balls_to_win": 8, "frames_to_win": 2}),
        ),
        Preset(
            slug="dynamic_pyramid_house",
            title=_("Dynamic pyramid, club rules: direct call"),
            description=_(
                "Dynamic pyramid with «прямой заказ»: only balls pocketed directly count, "
                "fools are spotted; frames to 8, matches to 2 frames won."
            ),
            fields=_games_fields(
                "dynamic_pyramid", {"balls_to_win": 8, "frames_to_win": 2, "direct_call": True}
            ),
        ),
        Preset(
            slug="classic_pyramid",
            title=_("Classic pyramid to 71"),
            description=_(
                "Classic pyramid: numbered balls, a ball and a pocket called, frames to 71 "
                "points, single frames. No rule text fixes the penalty for a foul: this preset "
                "gives the opponent 3 points and takes none from the offender; state your "
                "regulation's penalty in the settings. No time limit, double elimination."
            ),
            fields=_games_fields(
                "classic_pyramid",
                {"points_to_win": 71, "frames_to_win": 1, "foul_deduct": 0, "foul_award": 3},
            ),
        ),
    )
}


def preset_fields(slug: str) -> dict[str, Any]:
    """A fresh copy of the preset's settings (``KeyError`` for an unknown slug)."""
    return copy.deepcopy(PRESETS[slug].fields)
