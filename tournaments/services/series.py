"""Club cups (series): an organiser groups tournaments he organises into numbered stages,
with a points table per place and "best K of N stages count". Audited (no tournament of
their own: the series id is in the entry's data)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import audit_record
from tournaments import access
from tournaments.errors import BAD_REQUEST, FORBIDDEN, TournamentError
from tournaments.models import Series, SeriesStage, Tournament

if TYPE_CHECKING:
    from config.types import Actor

MAX_PLACES = 256
MAX_POINTS = 10_000
MAX_STAGES = 50


def _invalid(field: str, message: str) -> TournamentError:
    return TournamentError("invalid_series", message, status=BAD_REQUEST, params={"field": field})


def clean_points_table(value: Any) -> list[int]:
    """Whole numbers 0..10000, one per place from the first, never more for a worse place."""
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_PLACES:
        raise _invalid(
            "points_table",
            _("Give the points for 1st, 2nd, … place: from 1 to %(n)s numbers.")
            % {"n": MAX_PLACES},
        )
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= MAX_POINTS:
            raise _invalid(
                "points_table",
                _("Points are whole numbers from 0 to %(max)s.") % {"max": MAX_POINTS},
            )
        out.append(item)
    if any(b > a for a, b in itertools.pairwise(out)):
        raise _invalid("points_table", _("A worse place cannot earn more points."))
    return out


def _clean(data: Mapping[str, Any], series: Series | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "name" in data or series is None:
        name = " ".join(str(data.get("name") or "").split())
        if not name:
            raise _invalid("name", _("The series needs a name."))
        out["name"] = name[:200]
    if "description" in data:
        out["description"] = str(data["description"] or "")
    if "points_table" in data:
        out["points_table"] = clean_points_table(data["points_table"])
    for field in ("participation_points", "best_of"):
        if field in data:
            value = data[field]
            if value is None and field == "best_of":
                out[field] = None
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 0 <= value <= MAX_POINTS
            ):
                raise _invalid(field, _("A whole number from 0 to %(max)s.") % {"max": MAX_POINTS})
            if field == "best_of" and value < 1:
                raise _invalid(field, _("At least one stage must count."))
            out[field] = value
    if "is_public" in data:
        out["is_public"] = bool(data["is_public"])
    return out


def _set_stages(series: Series, tournaments: Sequence[Tournament], actor: Actor) -> None:
    if len(tournaments) > MAX_STAGES:
        raise _invalid("tournaments", _("At most %(n)s stages.") % {"n": MAX_STAGES})
    if len({t.pk for t in tournaments}) != len(tournaments):
        raise _invalid("tournaments", _("A tournament can be one stage only."))
    for tournament in tournaments:
        if not access.can_manage_tournament(actor, tournament):
            raise TournamentError(
                "forbidden",
                _("Only tournaments you organise can be stages of your series."),
                status=FORBIDDEN,
                params={"field": "tournaments", "tournament": tournament.pk},
            )
    SeriesStage.objects.filter(series=series).delete()
    SeriesStage.objects.bulk_create(
        SeriesStage(series=series, tournament=t, number=i)
        for i, t in enumerate(tournaments, start=1)
    )


def can_manage_series(user: Actor, series: Series) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or series.organisers.filter(pk=user.pk).exists()


@transaction.atomic
def series_create(
    *, actor: Actor, data: Mapping[str, Any], tournaments: Sequence[Tournament] = ()
) -> Series:
    if not access.is_organiser_role(actor):
        raise TournamentError("forbidden", _("Only organisers create series."), status=FORBIDDEN)
    series = Series.objects.create(**_clean(data, None))
    series.organisers.add(actor)
    _set_stages(series, tournaments, actor)
    audit_record(
        actor=actor,
        action="series_create",
        data={
            "series": series.pk,
            "name": series.name,
            "stages": [t.pk for t in tournaments],
            "points_table": series.points_table,
            "best_of": series.best_of,
        },
    )
    return series


@transaction.atomic
def series_update(
    *,
    series: Series,
    actor: Actor,
    data: Mapping[str, Any],
    tournaments: Sequence[Tournament] | None = None,
) -> Series:
    if not can_manage_series(actor, series):
        raise TournamentError("forbidden", _("Not your series."), status=FORBIDDEN)
    locked = Series.objects.select_for_update().get(pk=series.pk)
    values = _clean(data, locked)
    before = {field: getattr(locked, field) for field in values}
    for field, value in values.items():
        setattr(locked, field, value)
    locked.save(update_fields=[*values, "updated_at"])
    if tournaments is not None:
        _set_stages(locked, tournaments, actor)
    audit_record(
        actor=actor,
        action="series_update",
        data={
            "series": locked.pk,
            "before": dict(before.items()),
            "after": values,
            "stages": None if tournaments is None else [t.pk for t in tournaments],
        },
    )
    return locked
