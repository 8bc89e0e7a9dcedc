"""How well a model family predicts runs it did not learn from, three ways:

- ``cv``: 5-fold cross-validation over runs (shuffled with the seed). Repeats of a configuration
  fall on both sides, so this is the error for configurations already measured;
- ``unseen``: grouped 5-fold cross-validation, every run of a configuration (engine, cluster,
  configuration keys) in the same fold: the error for a configuration never measured;
- ``extrapolation``: learn from every size but the largest, predict the largest (sizes are input
  bytes, levels more than 5 % apart): the error beyond the measured range.

Errors are on seconds: MAE, MAPE (mean of |predicted - measured| / measured) and R².
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.metrics import r2_score
from sklearn.model_selection import GroupKFold, KFold

CV, UNSEEN, EXTRAPOLATION = "cv", "unseen", "extrapolation"
SCHEMES = {CV: "cross-validated (configurations measured)",
           UNSEEN: "unseen configurations (grouped hold-out)",
           EXTRAPOLATION: "largest size, learned from the smaller"}
SHORT = {CV: "cv", UNSEEN: "unseen", EXTRAPOLATION: "largest size"}
FOLDS = 5
MIN_GROUPS = 3  # configurations needed for a grouped hold-out
MIN_SIZE_LEVELS = 3  # sizes needed for the extrapolation test
MIN_LEARN_RUNS = 10  # runs of the smaller sizes needed for the extrapolation test
SIZE_LEVEL_GAP = 1.05  # sizes closer than this ratio are one level


@dataclass(frozen=True)
class Errors:
    runs: int
    mae_s: float
    mape: float  # a fraction: 0.1 is 10 %
    r2: float | None  # None with fewer than 2 runs or equal times
    within: float | None = None  # share of runs inside the predicted interval, where tested


@dataclass(frozen=True)
class Validation:
    """One family's out-of-fold predictions under one scheme."""

    scheme: str
    rows: np.ndarray  # row positions in the training frame
    measured_s: np.ndarray
    predicted_s: np.ndarray
    errors: Errors

    def log_residuals(self) -> np.ndarray:
        return np.abs(np.log(self.predicted_s) - np.log(self.measured_s))


def errors(measured_s: np.ndarray, predicted_s: np.ndarray) -> Errors:
    diff = np.abs(predicted_s - measured_s)
    r2 = None
    if len(measured_s) >= 2 and np.ptp(measured_s) > 0:
        r2 = float(r2_score(measured_s, predicted_s))
    return Errors(len(measured_s), float(diff.mean()), float((diff / measured_s).mean()), r2)


def cross_validate(model, X: np.ndarray, log_y: np.ndarray, seed: int) -> Validation:
    folds = KFold(n_splits=min(FOLDS, len(log_y)), shuffle=True, random_state=seed)
    return _out_of_fold(CV, model, X, log_y, folds.split(X))


def unseen_configurations(model, X: np.ndarray, log_y: np.ndarray,
                          groups: np.ndarray) -> Validation | None:
    count = len(set(groups))
    if count < MIN_GROUPS:
        return None
    folds = GroupKFold(n_splits=min(FOLDS, count))
    return _out_of_fold(UNSEEN, model, X, log_y, folds.split(X, groups=groups))


def size_levels(sizes: np.ndarray) -> np.ndarray | None:
    """Level of each run's size (0 the smallest), sizes within 5 % of the level's first being one
    level; None when a run has no size."""
    if len(sizes) == 0 or any(s is None or not math.isfinite(s) or s <= 0 for s in sizes):
        return None
    order = sorted(set(float(s) for s in sizes))
    level_of, level, start = {}, 0, order[0]
    for size in order:
        if size > start * SIZE_LEVEL_GAP:
            level, start = level + 1, size
        level_of[size] = level
    return np.array([level_of[float(s)] for s in sizes])


def extrapolation_split(sizes: list) -> tuple[np.ndarray, np.ndarray] | str:
    """(rows to learn from, rows to predict) for the extrapolation test, or why there is none."""
    levels = size_levels(np.array(sizes, dtype=object))
    if levels is None:
        return "runs without an input size"
    if levels.max() + 1 < MIN_SIZE_LEVELS:
        return f"{levels.max() + 1} input size(s), at least {MIN_SIZE_LEVELS} needed"
    top = levels == levels.max()
    if (~top).sum() < MIN_LEARN_RUNS:
        return f"{(~top).sum()} runs below the largest size, at least {MIN_LEARN_RUNS} needed"
    return np.flatnonzero(~top), np.flatnonzero(top)


def extrapolate(model, X: np.ndarray, log_y: np.ndarray, learn: np.ndarray,
                predict: np.ndarray) -> Validation:
    fitted = clone(model).fit(X[learn], log_y[learn])
    predicted = np.exp(fitted.predict(X[predict]))
    measured = np.exp(log_y[predict])
    return Validation(EXTRAPOLATION, predict, measured, predicted, errors(measured, predicted))


def interval_quantile(log_residuals: np.ndarray, level: float) -> float:
    """Split-conformal half-width in log space: the ceil((n+1)·level)-th smallest residual (the
    largest one when n is too small for the level)."""
    ordered = np.sort(log_residuals)
    rank = min(len(ordered), math.ceil((len(ordered) + 1) * level))
    return float(ordered[rank - 1])


def _out_of_fold(scheme: str, model, X, log_y, splits) -> Validation:
    predicted = np.empty(len(log_y))
    for learn, test in splits:
        predicted[test] = clone(model).fit(X[learn], log_y[learn]).predict(X[test])
    measured, predicted = np.exp(log_y), np.exp(predicted)
    return Validation(scheme, np.arange(len(log_y)), measured, predicted,
                      errors(measured, predicted))
