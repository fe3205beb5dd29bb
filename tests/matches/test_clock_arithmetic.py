"""The clock's arithmetic over plain values (no database)."""

from __future__ import annotations

import datetime as dt

from matches import clock

T0 = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def test_a_running_clock_counts_down_to_its_deadline() -> None:
    reading = clock.read(
        limit_seconds=80 * 60, elapsed_ms=0, running_since=T0, expired=False, now=at(61.5)
    )
    assert reading.running
    assert reading.elapsed_seconds == 61
    assert reading.remaining_seconds == 80 * 60 - 61  # rounded up: 4738.5 -> 4739
    assert reading.deadline == at(80 * 60)
    assert not reading.warning


def test_a_pause_keeps_the_net_time_and_moves_the_deadline() -> None:
    played = clock.played_ms(elapsed_ms=0, running_since=T0, now=at(600))
    assert played == 600_000
    # Resumed after a 5-minute break: the deadline is 5 minutes later than without it.
    assert clock.deadline(limit_seconds=4800, elapsed_ms=played, running_since=at(900)) == at(
        4800 + 300
    )
    paused = clock.read(
        limit_seconds=4800, elapsed_ms=played, running_since=None, expired=False, now=at(900)
    )
    assert paused.remaining_seconds == 4200 and paused.deadline is None and not paused.running


def test_the_warning_is_on_in_the_last_ten_minutes_only() -> None:
    def warning(remaining: float) -> bool:
        return clock.read(
            limit_seconds=3600,
            elapsed_ms=0,
            running_since=T0,
            expired=False,
            now=at(3600 - remaining),
        ).warning

    assert not warning(600.5)
    assert warning(600)
    assert warning(1)
    assert not warning(0)


def test_an_expired_clock_shows_no_time_left() -> None:
    reading = clock.read(
        limit_seconds=60, elapsed_ms=60_000, running_since=None, expired=True, now=at(100)
    )
    assert reading.remaining_seconds == 0 and reading.expired and not reading.warning


def test_without_a_limit_the_clock_only_counts_up() -> None:
    reading = clock.read(
        limit_seconds=None, elapsed_ms=5_000, running_since=T0, expired=False, now=at(10)
    )
    assert reading.elapsed_seconds == 15
    assert reading.remaining_seconds is None and reading.deadline is None and not reading.warning


def test_time_before_the_run_started_does_not_count() -> None:
    # A server clock a little behind the run's start never gives negative time.
    assert clock.played_ms(elapsed_ms=1000, running_since=at(5), now=at(4)) == 1000
