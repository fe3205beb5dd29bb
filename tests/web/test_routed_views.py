"""Every view a URL routes to can be made: a panel action or printout that forgot the hook its
abstract base asks for would answer every request with a 500."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver


def _patterns(resolver: URLResolver) -> Iterator[URLPattern]:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern)
        else:
            yield pattern


def test_no_routed_view_is_abstract() -> None:
    classes: list[Any] = [
        getattr(p.callback, "view_class", None) or getattr(p.callback, "cls", None)
        for p in _patterns(get_resolver())
    ]
    classes = [c for c in classes if c is not None]
    assert len(classes) > 50
    assert [c.__qualname__ for c in classes if inspect.isabstract(c)] == []
