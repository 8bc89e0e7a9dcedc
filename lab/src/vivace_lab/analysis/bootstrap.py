"""Bootstrap confidence interval of a ratio of medians."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RatioEstimate:
    """``median(values) / median(baseline)`` with its percentile bootstrap interval.

    ``low``/``high`` are None where the interval is undefined: a side with fewer than two values
    has no spread to resample, and an interval from the other side alone would look surer than
    the data are.
    """

    ratio: float | None
    low: float | None
    high: float | None
    confidence: float


def ratio_of_medians(
    values: Sequence[float],
    baseline: Sequence[float],
    *,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> RatioEstimate:
    """Ratio of medians, each side resampled independently with replacement ``resamples`` times.

    The ratio is None when a side is empty or the baseline median is 0. Deterministic for a seed.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    if not values or not baseline:
        return RatioEstimate(None, None, None, confidence)
    x = np.asarray(values, dtype=float)
    b = np.asarray(baseline, dtype=float)
    base_median = float(np.median(b))
    if base_median == 0.0:
        return RatioEstimate(None, None, None, confidence)
    ratio = float(np.median(x)) / base_median
    if len(x) < 2 or len(b) < 2:
        return RatioEstimate(ratio, None, None, confidence)
    rng = np.random.default_rng(seed)
    x_medians = np.median(x[rng.integers(0, len(x), size=(resamples, len(x)))], axis=1)
    b_medians = np.median(b[rng.integers(0, len(b), size=(resamples, len(b)))], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = x_medians / b_medians  # a resampled baseline median of 0 gives inf, kept
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(ratios, [tail, 1.0 - tail])
    return RatioEstimate(ratio, float(low), float(high), confidence)
