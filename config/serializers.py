"""Serializer bases and helpers shared by the apps' APIs."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from config.moments import NAIVE_MESSAGE, WINDOW_MESSAGE, outside_window

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# What the columns hold: a number past these is refused by validation, never sent to the database.
SMALLINT_MAX = 32767  # PositiveSmallIntegerField
INT_MAX = 2**31 - 1  # IntegerField, PositiveIntegerField
BIGINT_MAX = 2**63 - 1  # BigIntegerField, primary keys
# Money columns are DecimalField(max_digits=10, decimal_places=2).
MONEY_MAX_DIGITS = 10
MONEY_PLACES = 2


# DRF's own words for list lengths have no Russian translation.
LIST_ERRORS: dict[str, str | StrPromise] = {
    "max_length": _("The list is too long: at most {max_length} are allowed."),
    "min_length": _("The list must not be empty."),
    "empty": _("The list must not be empty."),
}


# SHADOWED: a declared field may bear the name of an attribute of Field or Serializer ("label",
# "source", "fields"). DRF's metaclass takes declared fields out of the class body, so the name
# shadows nothing at run time; the stubs see an assignment to the attribute, hence the
# `type: ignore[assignment]` on those lines. The name is the API's key and stays.


def component(name: str) -> dict[str, str]:
    """A reference to a schema component (for extend_schema_field), e.g. one that
    config.schema adds from the rules engine's contract."""
    return {"$ref": f"#/components/schemas/{name}"}


class FieldErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable code of the refusal, e.g. max_value.")
    message = serializers.CharField(help_text="In the user's language.")


class ErrorSerializer(serializers.Serializer[Any]):
    """The body of every error answer of the API (4xx and 5xx)."""

    code = serializers.CharField(help_text="Stable code: what to branch on.")
    message = serializers.CharField(help_text="A sentence in the user's language.")
    params = serializers.DictField(help_text="The values the message speaks of, by name.")
    # DRF's metaclass takes a declared field out of the class body: "fields" is the key of the
    # body, not Serializer.fields, which the stubs cannot know.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=FieldErrorSerializer(many=True),
        required=False,
        help_text='Invalid input only (code "invalid"): the refusals per field; a nested field '
        'is named by its path ("player.name", "place_shares.3").',
    )


class QueryIntegerField(serializers.IntegerField):
    """An integer query parameter: given empty ("?after="), it is invalid, not its default."""

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary:
            return dictionary.get(self.field_name)
        return serializers.empty


class MomentField(serializers.DateTimeField):
    """A date-time a client sends: ISO 8601 with its offset from UTC (a naive time is refused:
    whose clock would it be?) and inside the window of config.moments, checked on the value as
    written, before the conversion to UTC that overflows at the edges."""

    default_error_messages = {
        "naive": NAIVE_MESSAGE,
        "out_of_window": WINDOW_MESSAGE,
    }

    def to_internal_value(self, value: Any) -> Any:
        parsed = value if isinstance(value, dt.datetime) else None
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:
                parsed = None
        if parsed is not None:
            if parsed.tzinfo is None:
                self.fail("naive")
            if outside_window(parsed):
                self.fail("out_of_window")
        return super().to_internal_value(value)


class DayField(serializers.DateField):
    """A date a client sends, inside the window of config.moments."""

    default_error_messages = {"out_of_window": WINDOW_MESSAGE}

    def to_internal_value(self, value: Any) -> Any:
        day = super().to_internal_value(value)
        if outside_window(day):
            self.fail("out_of_window")
        return day


class StrictSerializer(serializers.Serializer[Any]):
    """A request body: a key the endpoint does not know is refused (400), not dropped, so that
    a misspelt optional field cannot pass unnoticed for its default."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: [_("Unknown field.")] for key in unknown})
            # DRF's CharField takes a number as its text; the schema says string, and so do we.
            wrong = sorted(
                name
                for name, field in self.fields.items()
                if isinstance(field, serializers.CharField)
                and not field.read_only
                and name in data
                and data[name] is not None
                and not isinstance(data[name], str)
            )
            if wrong:
                raise serializers.ValidationError(
                    {name: [_("Not a valid string.")] for name in wrong}
                )
            # DRF's BooleanField takes 0, 1, "yes"...; the schema says boolean, and so do we
            # (a query string, all text, keeps DRF's reading).
            if not isinstance(data, QueryDict):
                loose = sorted(
                    name
                    for name, field in self.fields.items()
                    if isinstance(field, serializers.BooleanField)
                    and not field.read_only
                    and name in data
                    and not isinstance(data[name], bool)
                    and not (data[name] is None and field.allow_null)
                )
                if loose:
                    raise serializers.ValidationError(
                        {name: [_("Must be true or false.")] for name in loose}
                    )
        return super().to_internal_value(data)


class NamesChoiceField(serializers.ChoiceField):
    """A choice among names read when used, not when the module loads: a registry that grows
    (rules.registry's disciplines) is the field's, in validation and in the schema alike."""

    def __init__(self, names: Callable[[], Iterable[str]], **kwargs: Any) -> None:
        self._names = names
        super().__init__(choices=(), **kwargs)

    def _current(self) -> dict[Any, str]:
        return {name: name for name in self._names()}

    @property
    def choices(self) -> dict[Any, str]:
        return self._current()

    @choices.setter
    def choices(self, value: Any) -> None:
        pass  # always the names' own

    @property
    def grouped_choices(self) -> dict[Any, str]:
        return self._current()

    @grouped_choices.setter
    def grouped_choices(self, value: Any) -> None:
        pass

    @property
    def choice_strings_to_values(self) -> dict[str, Any]:
        return {str(name): name for name in self._names()}

    @choice_strings_to_values.setter
    def choice_strings_to_values(self, value: Any) -> None:
        pass


_instances = threading.local()


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> Any:
    """`serializer_class(data=data).is_valid(raise_exception=True)`, then its validated_data.

    A valid body is validated by one instance per thread and class: a new serializer
    deep-copies every declared field, a third of a millisecond on every scored ball. A body
    that fails goes through a new serializer and is refused exactly as is_valid refuses it.
    Only for serializers whose validation reads no context (no request, no view)."""
    cache = _instances.__dict__.setdefault("by_class", {})
    serializer = cache.get(serializer_class)
    if serializer is None:
        serializer = cache[serializer_class] = serializer_class()
    try:
        return serializer.run_validation(data)
    except serializers.ValidationError:
        fresh = serializer_class(data=data)
        fresh.is_valid(raise_exception=True)
        return fresh.validated_data
