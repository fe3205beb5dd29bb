"""Command line: ``python -m rules replay RULESET.json EVENTS.json`` and ``python -m rules rulesets``.

Prints JSON on stdout and never a traceback. Exit codes: 0 success; 2 an impossible event or
an invalid ruleset (``{"error": {"index", "code", "message", "params"}}``); 1 an unreadable
file or invalid JSON (code ``invalid_input``); 64 bad usage.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rules.engine import replay
from rules.errors import RuleError
from rules.rulesets import rulesets

USAGE = "usage: python -m rules replay RULESET.json EVENTS.json | python -m rules rulesets"


class _InputError(Exception):
    pass


def _print(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")


def _error(code: str, message: str, index: int | None = None, **params: Any) -> dict[str, Any]:
    return {"error": {"index": index, "code": code, "message": message, "params": params}}


def _load(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise _InputError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    except (ValueError, RecursionError) as exc:
        # JSONDecodeError and UnicodeDecodeError are ValueErrors.
        raise _InputError(f"{path} is not valid JSON: {str(exc)[:200]}") from exc


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["rulesets"]:
        _print(rulesets())
        return 0
    if len(args) != 3 or args[0] != "replay":
        _print(_error("usage", USAGE))
        return 64
    try:
        ruleset = _load(args[1])
        events = _load(args[2])
    except _InputError as exc:
        _print(_error("invalid_input", str(exc)))
        return 1
    try:
        state = replay(ruleset, events)
    except RuleError as err:
        _print({"error": err.to_dict()})
        return 2
    _print(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
