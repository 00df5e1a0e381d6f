"""The dashboard's charts: pure functions from saved numbers to SVG geometry."""

import datetime

import pytest

from estimation.runs.estimate_views import OptionResult
from surveys.results.charts import WIDTH, daily_chart, interval_chart


def option(label, estimate, lower, upper, reported=10):
    return OptionResult(label, reported, reported / 20, estimate, lower, upper, 0.05)


def test_interval_chart_places_points_and_bars_on_a_0_to_100_axis():
    chart = interval_chart(
        [option("No", 0.8, 0.7, 0.9), option("Yes", 0.2, 0.1, 0.3)], level=0.9
    )
    assert [t.label for t in chart.ticks] == ["0%", "25%", "50%", "75%", "100%"]
    assert chart.x_left < chart.x_right <= WIDTH
    no, yes = chart.rows
    span = chart.x_right - chart.x_left
    assert yes.x_point == pytest.approx(chart.x_left + 0.2 * span, abs=0.01)
    assert no.x_lower < no.x_point < no.x_upper
    assert yes.y > no.y
    assert chart.grid_bottom < chart.height
    assert chart.summary == (
        "Estimates with 90% intervals. No: 80% (70%–90%); Yes: 20% (10%–30%)."
    )


def test_interval_chart_clips_to_the_axis():
    (row,) = interval_chart([option("Yes", 0.0, -0.1, 1.2)], level=0.95).rows
    assert row.x_lower == row.x_point
    assert row.x_upper == interval_chart([], level=0.95).x_right


def test_daily_chart_fills_empty_days_and_scales_to_the_busiest():
    day = datetime.date(2025, 5, 1)
    chart = daily_chart([(day, 4), (day + datetime.timedelta(days=2), 8)])
    assert [b.count for b in chart.bars] == [4, 0, 8]
    assert chart.bars[2].y == pytest.approx(chart.plot_top)
    assert chart.bars[0].height == pytest.approx(chart.bars[2].height / 2)
    assert chart.bars[1].height == 0
    assert "12 in total, at most 8 on one day (3 May 2025)" in chart.summary
    assert daily_chart([]) is None
