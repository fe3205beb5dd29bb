"""Fuzz: malformed events and rulesets may only ever raise RuleError, never anything else."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import contract
from rules.simulate import random_game
from tests.rules import samples
from tests.rules.helpers import fp, hypothesis_settings

pytestmark = pytest.mark.usefixtures("made_up")

# Valid game prefixes of every discipline's sample rulesets (the made-up ones registered
# meanwhile), so that junk arrives in every kind of `awaiting` state.
with samples.made_up_registered():
    PREFIXES = [
        (rs, random_game(rs, random.Random(seed), max_events=300, rare=0.0))
        for rs in samples.sample_list()
        for seed in range(3)
    ]
    # The vocabulary the engines know: event types, their fields, options, awaiting values.
    SPECS = contract._event_specs()
    WORDS = sorted(
        {
            *SPECS,
            *contract.option_values(),
            *contract.awaiting_values(),
            *rules.FOUL_CODES,
            *samples.names(),
            "a", "b", "c", "", "A", "type", "player", "null",
        }
    )  # fmt: skip
    KEYS = sorted(
        {key for fields, _, _ in SPECS.values() for key in fields} | {"type", "extra", ""}
    )
    RULESET_KEYS = sorted(
        {key["key"] for d in samples.every_discipline() for key in d.ruleset_keys}
        | {"discipline", "x"}
    )

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.integers(),
    st.sampled_from([10**6, 10**6 + 1, 2**63, -(2**63)]),
    st.just(None).map(lambda _: 10**5000),  # beyond int-to-str conversion: no repr in messages
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    st.text(max_size=6),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c", 1]), inner, max_size=3),
    ),
    max_leaves=6,
)
event_like = st.dictionaries(
    st.one_of(st.sampled_from(KEYS), st.integers(), st.text(max_size=4)), values, max_size=6
)
typed_event = st.builds(
    lambda t, rest: {"type": t, **rest},
    st.sampled_from(WORDS),
    st.dictionaries(st.sampled_from(KEYS[1:]), values, max_size=5),
)
junk = st.one_of(typed_event, typed_event, event_like, values)


def _only_rule_errors(ruleset: Any, events: Any) -> None:
    try:
        state = rules.replay(ruleset, events)
    except rules.RuleError as err:
        assert err.code in rules.ERROR_CODES
        assert isinstance(err.message, str) and err.message
        json.dumps(err.to_dict())  # params are JSON-able, whatever the input was
    else:
        json.dumps(state)


@hypothesis_settings(examples=400)
@given(
    prefix=st.sampled_from(PREFIXES),
    cut=st.floats(0, 1),
    tail=st.lists(junk, min_size=1, max_size=4),
)
def test_malformed_events_raise_only_rule_errors(
    prefix: tuple[dict[str, Any], list[dict[str, Any]]], cut: float, tail: list[Any]
) -> None:
    rs, events = prefix
    head = events[: int(len(events) * cut)]
    _only_rule_errors(rs, [*head, *tail])


@hypothesis_settings(examples=150)
@given(events=values)
def test_events_that_are_not_a_list_raise_only_rule_errors(events: Any) -> None:
    _only_rule_errors(fp(), events)


ruleset_like = st.one_of(
    values,
    st.dictionaries(
        st.sampled_from(RULESET_KEYS),
        st.one_of(values, st.sampled_from([*samples.names(), "opponent_takes"])),
        max_size=6,
    ).map(lambda d: {"discipline": rules.default().name, **d}),
)


@hypothesis_settings(examples=300)
@given(ruleset=ruleset_like)
def test_malformed_rulesets_raise_only_rule_errors(ruleset: Any) -> None:
    try:
        valid = rules.validate_ruleset(ruleset)
    except rules.RuleError as err:
        assert err.code == "invalid_ruleset"
        json.dumps(err.to_dict())
    else:
        assert rules.validate_ruleset(valid) == valid
        assert rules.replay(ruleset, [])["ruleset"] == valid


@hypothesis_settings(examples=150)
@given(state=values, event=junk)
def test_apply_on_junk_states_raises_only_rule_errors(state: Any, event: Any) -> None:
    try:
        rules.apply(state, event)
    except rules.RuleError as err:
        assert err.code in rules.ERROR_CODES
