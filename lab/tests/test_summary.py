"""Duration statistics, bootstrap ratios of medians and noise warnings on known data."""

from __future__ import annotations

import statistics

import pytest

from vivace_lab.analysis.bootstrap import ratio_of_medians
from vivace_lab.analysis.summary import describe, noise_warnings, outliers, summarize


def test_describe_known_values() -> None:
    stats = describe([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert stats.n == 8
    assert (stats.median, stats.min, stats.max, stats.mean) == (4.5, 2.0, 9.0, 5.0)
    assert stats.stdev == pytest.approx(statistics.stdev([2, 4, 4, 4, 5, 5, 7, 9]))
    assert stats.cv == pytest.approx(stats.stdev / 5.0)


def test_describe_small_groups() -> None:
    one = describe([3.0])
    assert (one.n, one.median, one.min, one.max) == (1, 3.0, 3.0, 3.0)
    assert (one.stdev, one.cv) == (None, None)
    assert describe([]).median is None


def test_ratio_of_medians_is_exact() -> None:
    estimate = ratio_of_medians([20.0, 30.0, 40.0], [9.0, 10.0, 11.0])
    assert estimate.ratio == 3.0
    assert estimate.low <= 3.0 <= estimate.high


def test_interval_contains_the_estimate_and_shrinks_with_more_samples() -> None:
    def spread(k: int) -> float:
        # k copies of the same symmetric pattern: same medians, more evidence
        engine = [9.0, 9.5, 10.0, 10.5, 11.0] * k
        base = [4.0, 4.5, 5.0, 5.5, 6.0] * k
        estimate = ratio_of_medians(engine, base, seed=7)
        assert estimate.ratio == 2.0
        assert estimate.low <= 2.0 <= estimate.high
        return estimate.high - estimate.low

    widths = [spread(k) for k in (1, 4, 16)]
    assert widths[0] > widths[1] > widths[2] > 0


def test_bootstrap_is_deterministic_for_a_seed() -> None:
    engine, base = [5.0, 6.0, 7.5, 6.2, 5.9], [3.0, 3.3, 2.9, 3.8]
    first = ratio_of_medians(engine, base, seed=42)
    assert ratio_of_medians(engine, base, seed=42) == first
    assert ratio_of_medians(engine, base, seed=43) != first


def test_single_runs_have_a_ratio_but_no_interval() -> None:
    estimate = ratio_of_medians([8.0], [2.0])
    assert (estimate.ratio, estimate.low, estimate.high) == (4.0, None, None)
    lopsided = ratio_of_medians([8.0], [2.0, 2.5, 1.5])
    assert (lopsided.ratio, lopsided.low, lopsided.high) == (4.0, None, None)


def test_ratio_without_data() -> None:
    assert ratio_of_medians([], [1.0, 2.0]).ratio is None
    assert ratio_of_medians([1.0], [0.0]).ratio is None


def test_outliers_and_noise_warnings() -> None:
    steady = [10.0, 10.1, 9.9, 10.0, 10.05]
    assert outliers(steady) == []
    assert noise_warnings(steady) == ()
    warm_up = [30.0, 10.0, 10.1, 9.9, 10.0, 10.05]
    assert outliers(warm_up) == [30.0]
    warnings = noise_warnings(warm_up)
    assert any(w.startswith("noisy: coefficient of variation") for w in warnings)
    assert any("1 outlier(s) beyond 1.5 IQR: 30 s" == w for w in warnings)
    assert any("first run is the slowest" in w for w in warnings)
    assert noise_warnings([4.0]) == ("single run: no measure of noise",)
    assert noise_warnings([]) == ("no successful run",)
    assert outliers([1.0, 100.0, 1.0]) == []  # too few values to call one an outlier
    assert outliers([10.0, 10.0, 10.0, 10.0, 10.3]) == []  # beyond the fences but only 3 % off


def test_summarize_rows_follow_the_input_and_use_the_first_engine_as_baseline() -> None:
    durations = {
        ("sleep", "vivace"): [12.0, 12.5, 12.2],
        ("sleep", "hadoop-local"): [900.0, 912.0, 920.0],
        ("terasort", "vivace"): [30.0],
        ("terasort", "hadoop-local"): [60.0],
        ("wordcount", "hadoop-local"): [5.0, 6.0],
    }
    rows = summarize(durations, "vivace", resamples=500, seed=1)
    assert [(r.workload, r.engine) for r in rows] == list(durations)
    sleep_base, sleep_hadoop, tera_base, tera_hadoop, wc = rows
    assert sleep_base.is_baseline and sleep_base.ratio.ratio == 1.0 and sleep_base.ratio.low is None
    assert sleep_hadoop.ratio.ratio == pytest.approx(912.0 / 12.2)
    assert sleep_hadoop.ratio.low <= sleep_hadoop.ratio.ratio <= sleep_hadoop.ratio.high
    assert sleep_hadoop.stats.median == 912.0 and sleep_hadoop.stats.n == 3
    assert tera_hadoop.ratio.ratio == 2.0 and tera_hadoop.ratio.low is None
    assert "single run: no measure of noise" in tera_base.warnings
    assert wc.ratio.ratio is None  # no baseline run of wordcount
