"""The one bound of every date and date-time a person or a client sends: 2000-01-01 to
2100-12-31, read as the sender wrote it (before any time zone conversion, which would overflow
at the edges of what Python and PostgreSQL hold).

The API's fields (config.serializers.MomentField, DayField), the panel's form fields (below)
and the import (tournaments.exchange_validation) all ask `outside_window`; what is already
stored out of it is read back without failing (tolerate_stored_dates, below)."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from django import forms
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2100, 12, 31)

WINDOW_MESSAGE = _("Enter a date from 1 January 2000 to 31 December 2100.")
NAIVE_MESSAGE = _(
    "Give the time with its offset from UTC (e.g. 2026-12-05T10:00:00+03:00 or ...Z)."
)


def outside_window(value: dt.date | dt.datetime | None) -> bool:
    """True for a date (or the date of a date-time, as written) outside the window."""
    if value is None:
        return False
    day = value.date() if isinstance(value, dt.datetime) else value
    return not FIRST_DAY <= day <= LAST_DAY


def validate_window(value: dt.date | dt.datetime | None) -> None:
    """The bound as a validator (the admin's date fields, whose widgets parse the value)."""
    if outside_window(value):
        raise forms.ValidationError(WINDOW_MESSAGE, code="out_of_window")


class WindowDateTimeField(forms.DateTimeField):
    """The panel's date-time: local time in the tournament's zone, inside the window."""

    def to_python(self, value: Any) -> dt.datetime | None:
        # The window is checked on the value as typed: converting year 1 or 9999 to UTC
        # first would overflow.
        parsed = self._parsed(value)
        if outside_window(parsed):
            raise forms.ValidationError(WINDOW_MESSAGE, code="out_of_window")
        return super().to_python(value)

    def _parsed(self, value: Any) -> dt.datetime | None:
        if isinstance(value, dt.datetime) or value in self.empty_values:
            return value if isinstance(value, dt.datetime) else None
        if isinstance(value, dt.date):
            return dt.datetime(value.year, value.month, value.day)
        text = str(value).strip()
        for fmt in self.input_formats or ():
            try:
                return dt.datetime.strptime(text, fmt)
            except (ValueError, TypeError):
                continue
        try:
            return parse_datetime(text)  # ISO 8601, as Django's field reads it
        except ValueError:
            return None


class WindowDateField(forms.DateField):
    def to_python(self, value: Any) -> dt.date | None:
        day = super().to_python(value)
        if outside_window(day):
            raise forms.ValidationError(WINDOW_MESSAGE, code="out_of_window")
        return day


# --- what is already stored --------------------------------------------------------------------

# The values a stored date or date-time out of Python's range (a BC timestamp, year 10000,
# ±infinity) reads as, and the clamp of what Python holds but a time zone shift would overflow.
EARLIEST_READ = dt.datetime(1, 1, 3, tzinfo=dt.UTC)
LATEST_READ = dt.datetime(9999, 12, 29, tzinfo=dt.UTC)
EARLIEST_DAY_READ, LATEST_DAY_READ = dt.date(1, 1, 1), dt.date(9999, 12, 31)


def _early(data: Any, binary: bool) -> bool:
    raw = bytes(data)
    if binary:
        return bool(raw) and raw[0] >= 0x80  # a negative count from 2000-01-01
    return raw.endswith(b"BC") or raw.startswith(b"-")


@functools.cache  # one class per loader, not per connection
def _tolerant(
    base: type[Any], *, binary: bool, aware: bool, day: bool, errors: tuple[type[Exception], ...]
) -> type[Any]:
    low: Any = EARLIEST_DAY_READ if day else EARLIEST_READ
    high: Any = LATEST_DAY_READ if day else LATEST_READ
    if not day and not aware:
        low, high = low.replace(tzinfo=None), high.replace(tzinfo=None)

    class Tolerant(base):  # type: ignore[misc]
        def load(self, data: Any) -> Any:
            try:
                value = super().load(data)
            except errors:
                return low if _early(data, binary) else high
            if day:
                return value
            return low if value < low else high if value > high else value

    return Tolerant


def tolerate_stored_dates(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created: on PostgreSQL, a stored date out of what Python holds (the probe's
    year-1 local time is a BC timestamp in UTC) reads as the nearest one Python holds, instead
    of failing every query that reads its row (the home page, the lists). The new value is
    refused where it enters (above); this is for rows stored before, or by hand."""
    if connection.vendor != "postgresql":
        return
    import psycopg  # only on PostgreSQL
    from psycopg.pq import Format
    from psycopg.types import datetime as pgdt

    errors = (psycopg.DataError, ValueError, OverflowError)

    adapters = connection.connection.adapters
    oid = adapters.types["timestamptz"].oid
    # Django's own loader of timestamptz (the connection's time zone) is kept underneath.
    django_tz = adapters.get_loader(oid, Format.TEXT)
    loaders = (
        ("timestamptz", django_tz, False, True, False),
        ("timestamptz", pgdt.TimestamptzBinaryLoader, True, True, False),
        ("timestamp", pgdt.TimestampLoader, False, False, False),
        ("timestamp", pgdt.TimestampBinaryLoader, True, False, False),
        ("date", pgdt.DateLoader, False, False, True),
        ("date", pgdt.DateBinaryLoader, True, False, True),
    )
    for name, base, binary, aware, day in loaders:
        adapters.register_loader(
            name, _tolerant(base, binary=binary, aware=aware, day=day, errors=errors)
        )
