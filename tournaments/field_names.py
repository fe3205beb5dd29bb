"""Settings and rules as a person reads them in a message: «Вступительный взнос», not
`entry_fee`; «Штраф с полки», not `shelf_to_table`. The API's params keep the raw names."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from matches.wording import discipline_label
from rules.registry import disciplines, find
from tournaments.models import Tournament

FIELDS: dict[str, Any] = {
    "name": _("Name"),
    "date": _("Date"),
    "venue": _("Venue"),
    "chief_judge": _("Chief judge"),
    "description": _("Description"),
    "discipline": _("Discipline"),
    "ruleset": _("Rules"),
    "stage_rules": _("Rules of the stages"),
    "time_limit_minutes": _("Net time limit, minutes"),
    "format": _("Format"),
    "grand_final": _("Grand final"),
    "third_place": _("Third-place match"),
    "playoff_size": _("Play-off size"),
    "group_size": _("Group size"),
    "group_advance": _("Players going on from a group"),
    "max_players": _("Maximum players"),
    "entry_fee": _("Entry fee"),
    "fee_bands": _("Entry fees by rating"),
    "pool_percent": _("Prize fund, percent of the fees"),
    "place_shares": _("Shares of the places"),
    "prize_unit": _("Prizes rounded to"),
    "added_money": _("Added money"),
    "withdrawn_prize": _("Prize of a withdrawn or disqualified player"),
    "withdrawal_fee": _("Fee of a player who withdraws"),
    "regulation_text": _("More of the regulation, in your words"),
    "table_hour_price": _("Table-hour price"),
    "lateness_step_minutes": _("Lateness: minutes per penalty"),
    "lateness_penalty_balls": _("Lateness: balls or frames lost per step"),
    "lateness_penalty_unit": _("Lateness: what a step costs"),
    "lateness_walkover_minutes": _("Lateness: walkover after, minutes"),
    "table_time_payer": _("Who pays for the table time"),
    "table_time_discount": _("Discount on the table time, percent"),
    "table_time_breaks": _("Technical breaks in the table time"),
    "no_show_rule": _("A player who does not come to his match"),
    "handicap_scheme": _("Handicap scheme"),
    "rated": _("Counts for the rating"),
    "elo_k": _("Rating factor K"),
    "self_scoring": _("Players score their own matches"),
    "break_by_lag": _("The lag decides who breaks"),
    "is_public": _("Public: anyone may follow it"),
}


def _rule_words(key: str | None = None, value: str | None = None) -> str | None:
    """The msgid of a ruleset key's label, or of a choice's, as the disciplines declare them
    (the first that has it)."""
    for d in disciplines():
        for spec in d.ruleset_keys:
            if key is not None and spec["key"] == key:
                return str(spec["label"])
            labels = spec.get("choice_labels") or {}
            if value is not None and value in labels:
                return str(labels[value])
    return None


def field_label(key: str) -> str:
    """A setting's or a rule's name («head_start.a» reads as the head start): a rule in the
    words its discipline gives it; a setting not named above as the tournament's model names
    it."""
    base = str(key).split(".", 1)[0]
    label = FIELDS.get(base)
    if label is not None:
        return str(label)
    rule = _rule_words(key=base)
    if rule is not None:
        return gettext(rule)
    try:
        # A setting: a column of the model, never the other side of a relation.
        return str(capfirst(Tournament._meta.get_field(base).verbose_name))  # type: ignore[union-attr]
    except FieldDoesNotExist:
        return str(key)


def value_label(value: Any, choices: Any = None) -> str:
    """A choice as the UI names it: from a model's choices when given, else the rules' (a
    ruleset choice in its discipline's words, a discipline by its name)."""
    if choices is not None:
        for choice_value, choice_label in choices:
            if choice_value == value:
                return str(choice_label)
    if find(value) is not None:
        return discipline_label(str(value))
    rule = _rule_words(value=str(value))
    return gettext(rule) if rule is not None else str(value)


def values_label(values: Any, choices: Any = None) -> str:
    return ", ".join(f"«{value_label(v, choices)}»" for v in values)
