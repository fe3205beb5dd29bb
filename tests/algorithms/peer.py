"""The peer's bracket outputs (brackets-manager), committed beside these tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PEER_BRACKETS = Path(__file__).resolve().parent / "peer_brackets"


def peer_output(name: str) -> Any:
    return json.loads((PEER_BRACKETS / name).read_text())
