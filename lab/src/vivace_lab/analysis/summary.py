"""Per (workload, engine) statistics of run durations, ratios to a baseline engine, noise warnings.

The ratio of an engine is ``median(engine) / median(baseline)`` over the same workload: above 1
the engine took longer than the baseline. The baseline is the first engine of the study.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vivace_lab.analysis.bootstrap import RatioEstimate, ratio_of_medians

CV_WARNING = 0.10  # coefficient of variation above which a group is called noisy
IQR_FACTOR = 1.5  # Tukey's fences
MIN_N_FOR_OUTLIERS = 4  # quartiles of fewer values say little
MIN_OUTLIER_DEVIATION = 0.05  # an outlier also lies this far (relative) from the median


@dataclass(frozen=True)
class DurationStats:
    """Statistics of one group's durations (seconds). Spread figures are None below n = 2."""

    n: int
    median: float | None
    min: float | None
    max: float | None
    mean: float | None
    stdev: float | None  # sample standard deviation (n - 1)
    cv: float | None  # stdev / mean


@dataclass(frozen=True)
class SummaryRow:
    """One (workload, engine) group: its statistics, its ratio to the baseline, its warnings."""

    workload: str
    engine: str
    baseline_engine: str
    stats: DurationStats
    ratio: RatioEstimate  # for the baseline itself: 1.0 with no interval
    warnings: tuple[str, ...]

    @property
    def is_baseline(self) -> bool:
        return self.engine == self.baseline_engine


def describe(durations: Sequence[float]) -> DurationStats:
    """n, median, min, max, mean, standard deviation and coefficient of variation."""
    values = [float(v) for v in durations]
    n = len(values)
    if n == 0:
        return DurationStats(0, None, None, None, None, None, None)
    mean = statistics.fmean(values)
    stdev = statistics.stdev(values) if n >= 2 else None
    cv = stdev / mean if stdev is not None and mean != 0.0 else None
    return DurationStats(n, statistics.median(values), min(values), max(values), mean, stdev, cv)


def outliers(durations: Sequence[float], factor: float = IQR_FACTOR) -> list[float]:
    """Values beyond ``factor`` interquartile ranges outside the quartiles (Tukey's fences).

    None below n = 4. Values within ``MIN_OUTLIER_DEVIATION`` of the median are never outliers:
    on a very steady group the fences are so tight that a 1 % deviation would cross them.
    """
    if len(durations) < MIN_N_FOR_OUTLIERS:
        return []
    q1, median, q3 = statistics.quantiles(durations, n=4, method="inclusive")
    low, high = q1 - factor * (q3 - q1), q3 + factor * (q3 - q1)
    near = MIN_OUTLIER_DEVIATION * abs(median)
    return [v for v in durations if (v < low or v > high) and abs(v - median) > near]


def noise_warnings(
    durations: Sequence[float], *, cv_limit: float = CV_WARNING, iqr_factor: float = IQR_FACTOR
) -> tuple[str, ...]:
    """hyperfine-like warnings about a group of durations, given in the order they were run."""
    stats = describe(durations)
    if stats.n == 0:
        return ("no successful run",)
    if stats.n == 1:
        return ("single run: no measure of noise",)
    warnings = []
    if stats.cv is not None and stats.cv > cv_limit:
        warnings.append(f"noisy: coefficient of variation {stats.cv:.0%} > {cv_limit:.0%}")
    far = outliers(durations, iqr_factor)
    if far:
        shown = ", ".join(f"{v:.4g} s" for v in far)
        warnings.append(f"{len(far)} outlier(s) beyond {iqr_factor:g} IQR: {shown}")
        if durations[0] in far and durations[0] == stats.max:
            warnings.append("the first run is the slowest: a warm-up effect (caches, JIT)?")
    return tuple(warnings)


def summarize(
    durations: Mapping[tuple[str, str], Sequence[float]],
    baseline_engine: str,
    *,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[SummaryRow]:
    """One row per (workload, engine) group of successful run durations, in the mapping's order.

    A workload without a baseline group (or whose baseline has no successful run) gets no ratio.
    """
    rows = []
    for (workload, engine), values in durations.items():
        baseline = durations.get((workload, baseline_engine), ())
        if engine == baseline_engine:
            ratio = RatioEstimate(1.0 if values else None, None, None, confidence)
        else:
            ratio = ratio_of_medians(
                values, baseline, resamples=resamples, confidence=confidence, seed=seed
            )
        rows.append(
            SummaryRow(
                workload=workload,
                engine=engine,
                baseline_engine=baseline_engine,
                stats=describe(values),
                ratio=ratio,
                warnings=noise_warnings(values),
            )
        )
    return rows
