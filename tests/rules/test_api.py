"""The public API: rulesets, validation, apply/replay, errors, the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.rules.helpers import brk, dx, fp, play, shot

ROOT = Path(__file__).resolve().parents[2]


# --- rulesets ----------------------------------------------------------------------------


def test_rulesets_describe_every_key_with_default_and_type() -> None:
    desc = rules.rulesets()
    assert list(desc) == [d.name for d in rules.disciplines()]
    json.dumps(desc)
    keys = {k["key"]: k for k in desc["free_pyramid"]["keys"]}
    assert set(keys) == {
        "balls_to_win",
        "frames_to_win",
        "continuation",
        "head_start",
        "penalty",
        "direct_call",
        "strict_break",
        "first_break",
        "frames_credit",
    }
    assert keys["balls_to_win"] == {
        "key": "balls_to_win",
        "type": "int",
        "default": 30,
        "min": 1,
        "max": 200,
        "help": keys["balls_to_win"]["help"],
        "label": "Balls to win a frame",
        "stage": True,
    }
    assert keys["penalty"]["choices"] == ["shelf_to_table", "opponent_takes"]
    assert list(keys["penalty"]["choice_labels"]) == keys["penalty"]["choices"]
    assert all(k["help"] and k["label"] for k in keys.values())
    # The race is what a stage may set of its own; Duplex's game has no race to change.
    assert rules.discipline("free_pyramid").stage_keys == ("balls_to_win", "frames_to_win")
    assert rules.discipline("duplex").stage_keys == ()
    assert [k["key"] for k in desc["duplex"]["keys"]] == ["first_break"]
    # The defaults make a valid ruleset, and a caller cannot change the description.
    desc["free_pyramid"]["keys"][0]["default"] = 0
    assert rules.rulesets()["free_pyramid"]["keys"][0]["default"] == 30


def test_validate_ruleset_fills_in_the_defaults_of_regulation_r() -> None:
    assert rules.validate_ruleset({"discipline": "free_pyramid"}) == {
        "discipline": "free_pyramid",
        "balls_to_win": 30,
        "frames_to_win": 1,
        "continuation": True,
        "head_start": {"a": 0, "b": 0},
        "penalty": "shelf_to_table",
        "direct_call": True,
        "strict_break": True,
        "first_break": "a",
        "frames_credit": {"a": 0, "b": 0},
    }
    assert rules.validate_ruleset(fp(head_start={"b": 3}))["head_start"] == {"a": 0, "b": 3}
    assert rules.validate_ruleset(dx()) == {"discipline": "duplex", "first_break": "a"}


@pytest.mark.parametrize(
    ("ruleset", "key", "reason"),
    [
        ({}, "discipline", "missing"),
        ([], "", "wrong_type"),
        ({"discipline": "snooker"}, "discipline", "bad_value"),
        ({"discipline": ["free_pyramid"]}, "discipline", "bad_value"),
        (fp(colour="red"), "colour", "unknown_key"),
        (fp(balls_to_win=True), "balls_to_win", "wrong_type"),
        (fp(balls_to_win=30.0), "balls_to_win", "wrong_type"),
        (fp(balls_to_win="30"), "balls_to_win", "wrong_type"),
        (fp(balls_to_win=0), "balls_to_win", "out_of_range"),
        (fp(balls_to_win=201), "balls_to_win", "out_of_range"),
        (fp(frames_to_win=-1), "frames_to_win", "out_of_range"),
        (fp(continuation=1), "continuation", "wrong_type"),
        (fp(penalty="both"), "penalty", "bad_value"),
        (fp(first_break="c"), "first_break", "bad_value"),
        (fp(head_start=3), "head_start", "wrong_type"),
        (fp(head_start={"c": 1}), "head_start.c", "unknown_key"),
        (fp(head_start={"a": -1}), "head_start.a", "out_of_range"),
        (fp(head_start={"a": False}), "head_start.a", "wrong_type"),
        (fp(head_start={"a": 30}), "head_start.a", "out_of_range"),
        (dx(balls_to_win=8), "balls_to_win", "unknown_key"),
    ],
)
def test_validate_ruleset_names_the_bad_key(ruleset: Any, key: str, reason: str) -> None:
    with pytest.raises(rules.RuleError) as info:
        rules.validate_ruleset(ruleset)
    assert info.value.code == "invalid_ruleset"
    assert info.value.params["key"] == key and info.value.params["reason"] == reason
    with pytest.raises(rules.RuleError):
        rules.replay(ruleset, [])


def test_out_of_range_params_give_the_bounds() -> None:
    with pytest.raises(rules.RuleError) as info:
        rules.validate_ruleset(fp(balls_to_win=500))
    assert info.value.params == {
        "key": "balls_to_win",
        "reason": "out_of_range",
        "min": 1,
        "max": 200,
    }


# --- apply / replay ----------------------------------------------------------------------


def test_apply_returns_a_new_state_and_never_mutates_its_input() -> None:
    st = rules.initial_state(fp())
    frozen = copy.deepcopy(st)
    new = rules.apply(st, brk("a", 2))
    assert st == frozen and new is not st
    assert new["score"]["a"] == 2 and new["events"] == 1
    new["stats"]["a"]["pocketed"] = 99
    new["ruleset"]["balls_to_win"] = 1
    assert st == frozen


def test_apply_works_on_a_state_that_went_through_json() -> None:
    st = json.loads(json.dumps(play(fp(), [brk("a", 1)])))
    assert rules.apply(st, shot("a", 1))["score"]["a"] == 2


def test_apply_refuses_what_is_not_a_state() -> None:
    for bad in (None, [], {}, {"discipline": "chess"}, {"discipline": "duplex"}):
        with pytest.raises(rules.RuleError) as info:
            rules.apply(bad, brk("a", 1))
        assert info.value.code == "invalid_state"


def test_replay_refuses_events_that_are_not_a_list() -> None:
    with pytest.raises(rules.RuleError) as info:
        rules.replay(fp(), {"type": "break"})
    assert info.value.code == "invalid_event" and info.value.index is None


def test_rule_error_is_a_value_error_with_code_message_params() -> None:
    with pytest.raises(ValueError, match="it is a's turn") as info:
        rules.replay(fp(), [brk("b", 1)])
    err = info.value
    assert isinstance(err, rules.RuleError)
    assert err.to_dict() == {
        "index": 0,
        "code": "out_of_turn",
        "message": "Player b cannot act now: it is a's turn.",
        "params": {"player": "b", "turn": "a"},
    }


def test_error_codes_are_documented_with_their_params() -> None:
    assert set(rules.ERROR_CODES) == {
        "finished",
        "unexpected_event",
        "out_of_turn",
        "too_many_balls",
        "invalid_event",
        "invalid_ruleset",
        "invalid_state",
    }
    for entry in rules.ERROR_CODES.values():
        assert entry["help"] and isinstance(entry["params"], list)


def test_importing_rules_does_not_import_django() -> None:
    code = "import sys, rules, rules.__main__; sys.exit('django' in sys.modules)"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- command line ------------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m rules`` with these arguments, in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], cwd=ROOT, capture_output=True, text=True
    )


def _cli(tmp_path: Path, ruleset: Any, events: Any) -> tuple[int, dict[str, Any], str]:
    rs_file = tmp_path / "ruleset.json"
    ev_file = tmp_path / "events.json"
    for path, data in ((rs_file, ruleset), (ev_file, events)):
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    proc = _run("replay", str(rs_file), str(ev_file))
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def test_cli_prints_the_state(tmp_path: Path) -> None:
    events = [brk("a", 1), shot("a", 1)]
    rc, out, err = _cli(tmp_path, fp(), events)
    assert rc == 0 and err == ""
    assert out == rules.replay(fp(), events)


def test_cli_impossible_event_exits_2(tmp_path: Path) -> None:
    rc, out, err = _cli(tmp_path, fp(), [brk("a", 1), shot("b", 1)])
    assert rc == 2 and err == ""
    assert out["error"]["index"] == 1
    assert out["error"]["code"] == "out_of_turn"
    assert out["error"]["message"] == "Player b cannot act now: it is a's turn."


def test_cli_bad_ruleset_exits_2(tmp_path: Path) -> None:
    rc, out, _ = _cli(tmp_path, {"discipline": "free_pyramid", "balls_to_win": True}, [])
    assert rc == 2
    assert out["error"]["code"] == "invalid_ruleset" and out["error"]["index"] is None


@pytest.mark.parametrize("events", ["[{", "", "\udcff", "[" * 50000])
def test_cli_bad_json_gives_an_error_and_no_traceback(tmp_path: Path, events: str) -> None:
    rs_file = tmp_path / "r.json"
    rs_file.write_text(json.dumps(fp()))
    ev_file = tmp_path / "e.json"
    ev_file.write_bytes(events.encode("utf-8", "surrogateescape"))
    proc = _run("replay", str(rs_file), str(ev_file))
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_input"


def test_cli_missing_file_and_bad_usage(tmp_path: Path) -> None:
    proc = _run("replay", str(tmp_path / "no.json"), "x.json")
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_input"
    proc = _run("jump")
    assert proc.returncode == 64 and json.loads(proc.stdout)["error"]["code"] == "usage"


def test_cli_rulesets() -> None:
    proc = _run("rulesets")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == rules.rulesets()
