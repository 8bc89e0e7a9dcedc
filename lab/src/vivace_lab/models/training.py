"""A workload's models: every family evaluated three ways, the best chosen, all fitted on every run.

The best family is the one with the lowest MAPE on unseen configurations (what a recommendation
mostly asks about); where there is no grouped hold-out (fewer than 3 configurations), the lowest
cross-validated MAPE. Its intervals are split-conformal: the 90th percentile of its out-of-fold
errors (in log time), those of the cross-validation for a configuration already measured, those of
the grouped hold-out for one never measured. Extrapolation has no such guarantee: the
extrapolation test measures how often its interval held there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import clone

from vivace_lab.models import evaluation
from vivace_lab.models.dataset import TrainingSet
from vivace_lab.models.evaluation import CV, EXTRAPOLATION, UNSEEN, Validation
from vivace_lab.models.families import FAMILIES
from vivace_lab.models.features import FeatureSpace

MIN_RUNS = 20
INTERVAL_LEVEL = 0.9
DEFAULT_SEED = 0


class NotEnoughRuns(Exception):
    """Too few runs to learn from; the message says how many there are and how many it takes."""

    def __init__(self, workload: str, runs: int) -> None:
        super().__init__(f"{runs} runs: not enough for a model of {workload} "
                         f"(at least {MIN_RUNS} successful runs)")
        self.workload = workload
        self.runs = runs


@dataclass
class FamilyResult:
    family: str
    validations: dict[str, Validation]  # by scheme; a scheme that could not be run is absent

    def mape(self, scheme: str) -> float | None:
        validation = self.validations.get(scheme)
        return validation.errors.mape if validation else None


@dataclass
class WorkloadModel:
    training: TrainingSet
    space: FeatureSpace
    results: dict[str, FamilyResult]  # by family, in FAMILIES' order
    chosen: str
    chosen_by: str  # the scheme the choice was made on
    fitted: dict[str, object]  # every family fitted on every run
    half_width: dict[str, float]  # CV / UNSEEN -> conformal half-width in log time
    missing: dict[str, str] = field(default_factory=dict)  # scheme -> why it was not run
    seed: int = DEFAULT_SEED

    @property
    def workload(self) -> str:
        return self.training.workload

    @property
    def runs(self) -> int:
        return len(self.training)

    def features(self, frame: pd.DataFrame) -> np.ndarray:
        return _with_intercept(self.space.matrix(frame))

    def predict_log(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """(chosen family's log seconds, the spread of all families' log seconds) per row."""
        X = self.features(frame)
        every = np.array([self.fitted[name].predict(X) for name in self.fitted])
        return self.fitted[self.chosen].predict(X), every.std(axis=0)


def build_model(training: TrainingSet, seed: int = DEFAULT_SEED) -> WorkloadModel:
    """Evaluates every family and fits it on all runs; NotEnoughRuns below MIN_RUNS."""
    if len(training) < MIN_RUNS:
        raise NotEnoughRuns(training.workload, len(training))
    frame = training.frame
    space = FeatureSpace.fit(frame, training.settings)
    X = _with_intercept(space.matrix(frame))
    log_y = np.log(frame["duration_s"].to_numpy(dtype=float))
    groups = training.configuration_ids().to_numpy()
    missing: dict[str, str] = {}
    if len(set(groups)) < evaluation.MIN_GROUPS:
        missing[UNSEEN] = (f"{len(set(groups))} configuration(s), at least "
                           f"{evaluation.MIN_GROUPS} needed")
    split = evaluation.extrapolation_split(frame["input_bytes"].tolist())
    if isinstance(split, str):
        missing[EXTRAPOLATION] = split

    results: dict[str, FamilyResult] = {}
    fitted: dict[str, object] = {}
    for name, family in FAMILIES.items():
        model = family.make(seed, len(frame))
        validations = {CV: evaluation.cross_validate(model, X, log_y, seed)}
        unseen = evaluation.unseen_configurations(model, X, log_y, groups)
        if unseen is not None:
            validations[UNSEEN] = unseen
        if not isinstance(split, str):
            validations[EXTRAPOLATION] = evaluation.extrapolate(model, X, log_y, *split)
        results[name] = FamilyResult(name, validations)
        fitted[name] = clone(model).fit(X, log_y)

    chosen_by = UNSEEN if UNSEEN not in missing else CV
    chosen = min(results, key=lambda n: results[n].mape(chosen_by))
    best = results[chosen].validations
    half_width = {CV: evaluation.interval_quantile(best[CV].log_residuals(), INTERVAL_LEVEL)}
    half_width[UNSEEN] = (evaluation.interval_quantile(best[UNSEEN].log_residuals(), INTERVAL_LEVEL)
                          if UNSEEN in best else half_width[CV])
    if EXTRAPOLATION in best:
        best[EXTRAPOLATION] = _with_coverage(FAMILIES[chosen].make(seed, len(frame)), X, log_y,
                                             split, best[EXTRAPOLATION], seed)
    return WorkloadModel(training, space, results, chosen, chosen_by, fitted, half_width,
                         missing, seed)


def _with_coverage(model, X, log_y, split, validation: Validation, seed: int) -> Validation:
    """The extrapolation test's share of runs inside the interval the model would have given,
    its half-width from a cross-validation of the smaller sizes alone."""
    learn, _ = split
    inner = evaluation.cross_validate(model, X[learn], log_y[learn], seed)
    width = evaluation.interval_quantile(inner.log_residuals(), INTERVAL_LEVEL)
    within = float(np.mean(validation.log_residuals() <= width))
    errors = evaluation.Errors(**{**validation.errors.__dict__, "within": within})
    return Validation(validation.scheme, validation.rows, validation.measured_s,
                      validation.predicted_s, errors)


def _with_intercept(X: np.ndarray) -> np.ndarray:
    """Models need a column to fit; when no setting varies, a constant one (the model is a mean)."""
    return X if X.shape[1] else np.zeros((X.shape[0], 1))
