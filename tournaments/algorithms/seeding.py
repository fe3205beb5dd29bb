"""Seeding helpers: the standard bracket order, reproducible random draws, snake groups."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

__all__ = ["bracket_size", "random_order", "seed_order", "snake_groups"]

T = TypeVar("T")


def bracket_size(n: int) -> int:
    """The smallest power of two >= n (at least 2)."""
    if n < 2:
        raise ValueError(f"a bracket needs at least 2 entrants, got {n}")
    return 1 << (n - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """Seeds in bracket position order for a power-of-two ``size``.

    Round-1 pairs sum to size + 1 (16: 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14,
    6-11). Every block of 2^r consecutive positions holds exactly one of each
    tier of seeds (1..size/2^r, the next size/2^r, ...) and starts with its best
    seed, so 1 and 2 meet only in the final and 1..4 only from the semi-finals.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"size must be a power of two, got {size}")
    order = [1]
    length = 1
    while length < size:
        # Each position p splits into (p, its mirror); slice assignment keeps it fast.
        mirror = 2 * length + 1
        grown = order * 2
        grown[::2] = order
        grown[1::2] = [mirror - s for s in order]
        order = grown
        length *= 2
    return order


def random_order(items: Iterable[T], seed: int) -> list[T]:
    """A shuffled copy of ``items``; the same ``seed`` gives the same order (store it)."""
    shuffled = list(items)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def snake_groups(n: int, groups: int) -> list[list[int]]:
    """Seeds 1..n dealt into ``groups`` groups in snake order (1..G, then G..1, ...)."""
    if groups < 1:
        raise ValueError(f"groups must be positive, got {groups}")
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for i in range(n):
        lap, pos = divmod(i, groups)
        dealt[pos if lap % 2 == 0 else groups - 1 - pos].append(i + 1)
    return dealt
