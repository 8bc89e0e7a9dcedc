"""How the report writes numbers."""

from __future__ import annotations

from collections.abc import Mapping

from vivace_lab.analysis.bootstrap import RatioEstimate


def _decimals(value: float) -> int:
    return 3 if abs(value) < 10 else 2 if abs(value) < 100 else 1


def seconds(value: float | None) -> str:
    """Seconds with precision that suits the size: 0.512, 12.20, 912.0."""
    return "–" if value is None else f"{value:.{_decimals(value)}f}"


def mean_sd(mean: float | None, stdev: float | None) -> str:
    """``mean ± σ``, both with the mean's precision; the mean alone without a σ."""
    if mean is None:
        return "–"
    if stdev is None:
        return seconds(mean)
    return f"{seconds(mean)} ± {stdev:.{_decimals(mean)}f}"


def factor(value: float | None) -> str:
    """A ratio: 0.85, 2.00, 74.8."""
    if value is None:
        return "–"
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}"


def ratio(estimate: RatioEstimate) -> str:
    return "–" if estimate.ratio is None else f"{factor(estimate.ratio)}×"


def interval(estimate: RatioEstimate) -> str:
    if estimate.low is None or estimate.high is None:
        return "undefined" if estimate.ratio is not None else "–"
    return f"{factor(estimate.low)} – {factor(estimate.high)}"


def percent(fraction: float | None) -> str:
    return "–" if fraction is None else f"{100 * fraction:.1f} %"


def pairs(mapping: Mapping[str, object]) -> str:
    """``k=v`` pairs, sorted by key; a nested mapping's as ``k.sub=v`` (a cluster's ``minicluster``)."""
    return ", ".join(f"{k}={v}" for k, v in sorted(_flat(mapping))) or "–"


def _flat(mapping: Mapping[str, object], prefix: str = ""):
    for key, value in mapping.items():
        if isinstance(value, Mapping):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value
