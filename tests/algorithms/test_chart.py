"""The rating chart's geometry (pure, no database)."""

from tournaments.algorithms.chart import HEIGHT, PAD_BOTTOM, PAD_TOP, ChartPoint, rating_chart


def test_no_changes_no_chart() -> None:
    assert rating_chart(start=900, points=[]) is None


def test_points_span_the_height_and_keep_their_order() -> None:
    chart = rating_chart(
        start=900,
        points=[ChartPoint(950, 50, "Кубок 1"), ChartPoint(880, -70, "Кубок 2")],
    )
    assert chart is not None
    ys = [m.y for m in chart.markers]
    assert ys[0] == PAD_TOP  # the highest rating at the top
    assert ys[1] == HEIGHT - PAD_BOTTOM  # the lowest at the bottom
    xs = [m.x for m in chart.markers]
    assert xs == sorted(xs)
    assert chart.polyline.count(",") == 3  # the start and two changes
    assert [m.label for m in chart.markers] == ["Кубок 1", "Кубок 2"]
    assert {r for _, r in chart.ticks} == {880, 915, 950}


def test_a_flat_rating_is_drawn_in_the_middle() -> None:
    chart = rating_chart(start=900, points=[ChartPoint(901, 1, "x")])
    assert chart is not None
    assert PAD_TOP < chart.markers[0].y < HEIGHT - PAD_BOTTOM
