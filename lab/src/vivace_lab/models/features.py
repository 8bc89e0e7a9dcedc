"""Settings (text) to model features (numbers), and what the training runs covered.

Every setting column becomes one of:

- numbers: the logarithm of the value when all values seen are positive (a time proportional to
  size over slots is then linear in the features), else the value itself;
- flags: ``true``/``false`` as 1/0;
- categories (engine, cluster, codec names ...): one 0/1 column per value seen.

A column with a single value in the training runs gives no feature, but requests are still checked
against it. A missing value (a run that did not have the key) is taken as the column's most common
value, which is also what a request that does not name the setting gets.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from vivace_lab.models.dataset import short_name

NUMBER, FLAG, CATEGORY = "number", "flag", "category"


@dataclass(frozen=True)
class SettingColumn:
    name: str
    kind: str  # NUMBER | FLAG | CATEGORY
    values: tuple[str, ...]  # distinct values seen, in natural order
    default: str | None  # the most common value (None: the column was empty)
    low: float | None = None  # NUMBER: range seen
    high: float | None = None
    log: bool = False  # NUMBER: features are log(value)

    @property
    def varies(self) -> bool:
        return len(self.values) > 1

    def feature_names(self) -> list[str]:
        if not self.varies:
            return []
        if self.kind == CATEGORY:
            return [f"{self.name}={v}" for v in self.values]
        return [f"log {self.name}" if self.log else self.name]

    def encode(self, values: list[str | None]) -> np.ndarray:
        """The column's features for these values (rows), shape (len(values), features)."""
        filled = [self.default if v is None else v for v in values]
        if self.kind == CATEGORY:
            return np.array([[1.0 if v == seen else 0.0 for seen in self.values] for v in filled])
        numbers = np.array([_number(v, self.kind) for v in filled], dtype=float)
        if self.log:
            numbers = np.log(np.where(numbers > 0, numbers, np.nan))
        return numbers.reshape(-1, 1)

    def outside(self, value: str | None) -> str | None:
        """Why ``value`` lies outside what the training runs covered; None when it does not."""
        if value is None or value == self.default and self.values:
            return None
        label = short_name(self.name)
        if self.kind == NUMBER:
            number = _number(value, NUMBER)
            if number is None or math.isnan(number):
                return f"{label}={value} is not a number (the runs had {_range(self)})"
            if number > self.high:
                return f"{label}={value} is above the largest value measured ({_format(self.high)})"
            if number < self.low:
                return f"{label}={value} is below the smallest value measured ({_format(self.low)})"
            if self.log and number <= 0:
                return f"{label}={value}: the runs had only positive values"
            return None
        if value not in self.values:
            return f"{label}={value} was never measured (the runs had {', '.join(self.values)})"
        return None


class FeatureSpace:
    """The encoding of a workload's settings, fitted on its training runs."""

    def __init__(self, columns: list[SettingColumn]) -> None:
        self.columns = columns
        self.by_name = {c.name: c for c in columns}
        self.feature_names = [n for c in columns for n in c.feature_names()]

    @classmethod
    def fit(cls, frame: pd.DataFrame, settings: tuple[str, ...]) -> FeatureSpace:
        return cls([_fit_column(name, frame[name].tolist()) for name in settings])

    def matrix(self, frame: pd.DataFrame) -> np.ndarray:
        """Feature matrix of the rows of ``frame`` (which has every setting column)."""
        parts = [c.encode(frame[c.name].tolist()) for c in self.columns if c.varies]
        if not parts:
            return np.zeros((len(frame), 0))
        return np.hstack(parts)

    def defaults(self) -> dict[str, str | None]:
        return {c.name: c.default for c in self.columns}

    def outside(self, settings: dict[str, str | None]) -> list[str]:
        """Every way ``settings`` lies outside the training runs' range."""
        reasons = []
        for column in self.columns:
            reason = column.outside(settings.get(column.name))
            if reason:
                reasons.append(reason)
        return reasons


def _fit_column(name: str, raw: list) -> SettingColumn:
    values = [None if _missing(v) else str(v) for v in raw]
    present = [v for v in values if v is not None]
    counts = Counter(present)
    default = min(counts, key=lambda v: (-counts[v], _natural(v))) if counts else None
    distinct = tuple(sorted(counts, key=_natural))
    if distinct and all(v.lower() in ("true", "false") for v in distinct):
        return SettingColumn(name, FLAG, distinct, default)
    numbers = [_number(v, NUMBER) for v in distinct]
    if distinct and all(n is not None and math.isfinite(n) for n in numbers):
        return SettingColumn(name, NUMBER, distinct, default, min(numbers), max(numbers),
                             log=min(numbers) > 0)
    return SettingColumn(name, CATEGORY, distinct, default)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _number(value: str | None, kind: str) -> float | None:
    if value is None:
        return None
    if kind == FLAG:
        return 1.0 if str(value).strip().lower() == "true" else 0.0
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def _natural(text: str):
    """Numbers in numeric order, before words."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def _format(number: float) -> str:
    return f"{number:.0f}" if float(number).is_integer() else f"{number:g}"


def _range(column: SettingColumn) -> str:
    return f"{_format(column.low)} to {_format(column.high)}"
