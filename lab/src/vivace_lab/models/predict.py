"""One prediction: a request's settings completed and checked, the predicted time and cost with
their interval, the measured runs nearest to it, and what lies outside the measured range."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from vivace_lab.models.bundles import companions
from vivace_lab.models.dataset import (
    CLUSTER, CONF, ENGINE, PARAM, configuration_id, describe_settings, hardware_settings,
    short_name,
)
from vivace_lab.models.evaluation import CV, UNSEEN
from vivace_lab.models.features import CATEGORY, FLAG, NUMBER
from vivace_lab.models.training import INTERVAL_LEVEL, WorkloadModel
from vivace_lab.workloads.catalogue import WORKLOADS

NEAREST = 3


class RequestError(ValueError):
    """A request the models cannot answer; the message names the setting and what is known."""


@dataclass(frozen=True)
class Request:
    workload: str
    params: dict[str, str] = field(default_factory=dict)  # workload parameters (rows, bytes ...)
    sets: dict[str, str] = field(default_factory=dict)  # configuration keys
    engine: str | None = None
    cluster: str | None = None


@dataclass(frozen=True)
class NearRun:
    run_id: int
    duration_s: float
    differences: str  # the settings in which it differs from the request ("" when none)


@dataclass(frozen=True)
class Estimate:
    """A predicted time with its interval, and its cost where the cluster has a price."""

    settings: dict[str, str | None]
    time_s: float
    low_s: float
    high_s: float
    spread: float  # standard deviation of the families' log predictions (their disagreement)
    hourly_price: float | None
    measured_runs: int  # training runs of exactly these settings
    configuration_runs: int  # training runs of this engine, cluster and keys (any parameters)

    @property
    def configuration_measured(self) -> bool:
        return self.configuration_runs > 0

    def _cost(self, seconds: float) -> float | None:
        return None if self.hourly_price is None else seconds * self.hourly_price / 3600.0

    @property
    def cost(self) -> float | None:
        return self._cost(self.time_s)

    @property
    def cost_low(self) -> float | None:
        return self._cost(self.low_s)

    @property
    def cost_high(self) -> float | None:
        return self._cost(self.high_s)

    def describe(self, columns=None) -> str:
        return describe_settings(self.settings, columns)


@dataclass(frozen=True)
class Prediction:
    workload: str
    estimate: Estimate
    family: str
    level: float  # of the interval: 0.9
    defaulted: tuple[str, ...]  # settings the request did not name: the runs' most common value
    outside: tuple[str, ...]  # how the request lies beyond the measured range (empty: inside)
    nearest: tuple[NearRun, ...]

    @property
    def extrapolating(self) -> bool:
        return bool(self.outside)


def resolve(model: WorkloadModel, request: Request) -> tuple[dict[str, str | None], list[str]]:
    """The request's settings, every setting the models know filled in (the runs' most common
    value where the request names none), and the columns so defaulted."""
    space, training = model.space, model.training
    settings = space.defaults()
    named: set[str] = set()
    catalogue = WORKLOADS.get(request.workload)
    for name, value in request.params.items():
        column = PARAM + name
        if column not in space.by_name:
            raise RequestError(f"parameter '{name}': no {request.workload} run the models learned "
                               f"from has it (they have: {_names(space, PARAM)})")
        param = catalogue.param(name) if catalogue else None
        try:
            settings[column] = str(param.parse(value)) if param else str(value)
        except ValueError as e:
            raise RequestError(f"parameter '{name}': {e}") from None
        named.add(column)
    for key, value in request.sets.items():
        column = CONF + key
        if column not in space.by_name:
            raise RequestError(f"configuration key '{key}': no {request.workload} run the models "
                               f"learned from had it set (keys the studies set: "
                               f"{_names(space, CONF) or 'none'})")
        settings[column] = str(value)
        named.add(column)
    for column, value in ((ENGINE, request.engine), (CLUSTER, request.cluster)):
        if value is None:
            continue
        known = space.by_name[column].values
        if value not in known:
            raise RequestError(f"{column} '{value}': no {request.workload} runs on it to learn from "
                               f"({column}s measured: {', '.join(known)})")
        settings[column] = value
        named.add(column)
    settings.update(hardware_settings(training.clusters.get(settings[CLUSTER]), training.settings))
    for column in space.columns:
        settings[column.name] = _checked(column, settings.get(column.name))
    joined = _companions(model, {c: settings[c] for c in named})  # a bundle's other keys
    settings.update(joined)
    defaulted = [c for c in training.settings if c not in named and c not in joined
                 and not c.startswith("hw:") and space.by_name[c].varies]
    return settings, defaulted


def _companions(model: WorkloadModel, given: dict[str, str]) -> dict[str, str]:
    """Values of the keys that went with the given ones in every run (a bundle's other keys)."""
    varying = [c.name for c in model.space.columns if c.varies and c.name.startswith(CONF)]
    frame = model.training.frame
    return companions({c: frame[c].tolist() for c in varying},
                      {c: v for c, v in given.items() if c in varying})


def estimate(model: WorkloadModel, rows: list[dict[str, str | None]],
             prices: dict[str, float | None]) -> list[Estimate]:
    """Estimates for resolved settings (one per row), intervals at INTERVAL_LEVEL."""
    if not rows:
        return []
    frame = pd.DataFrame(rows, columns=list(model.training.settings), dtype=object)
    log_time, spread = model.predict_log(frame)
    training = model.training
    per_configuration = training.configuration_ids().value_counts().to_dict()
    exact = _exact_counts(model)
    out = []
    for settings, log_t, disagreement in zip(rows, log_time, spread):
        runs = per_configuration.get(configuration_id(settings, training.configuration_columns), 0)
        width = model.half_width[CV if runs else UNSEEN]
        out.append(Estimate(dict(settings), math.exp(log_t), math.exp(log_t - width),
                            math.exp(log_t + width), float(disagreement),
                            prices.get(settings.get(CLUSTER)),
                            exact.get(configuration_id(settings, training.settings), 0), runs))
    return out


def predict(model: WorkloadModel, request: Request, prices: dict[str, float | None]) -> Prediction:
    settings, defaulted = resolve(model, request)
    [result] = estimate(model, [settings], prices)
    return Prediction(request.workload, result, model.chosen, INTERVAL_LEVEL, tuple(defaulted),
                      tuple(model.space.outside(settings)), nearest_runs(model, settings))


def nearest_runs(model: WorkloadModel, settings: dict[str, str | None],
                 count: int = NEAREST) -> tuple[NearRun, ...]:
    """The measured runs closest to ``settings`` in the standardised feature space."""
    frame = model.training.frame
    X = model.features(frame)
    scale = X.std(axis=0)
    scale[scale == 0] = 1.0
    target = model.features(pd.DataFrame([settings], columns=list(model.training.settings),
                                         dtype=object))[0]
    distance = np.sqrt((((X - target) / scale) ** 2).sum(axis=1))
    order = np.argsort(distance, kind="stable")[:count]
    records = frame.to_dict("records")
    visible = [c for c in model.training.settings if not c.startswith("hw:")]
    near = []
    for i in order:
        run = records[i]
        differs = {c: run[c] for c in visible if _text(run[c]) != _text(settings.get(c))}
        near.append(NearRun(int(run["run_id"]), float(run["duration_s"]),
                            describe_settings(differs)))
    return tuple(near)


def _exact_counts(model: WorkloadModel) -> dict[str, int]:
    """Runs per exact settings (configuration and parameters)."""
    counts: dict[str, int] = {}
    for row in model.training.frame.to_dict("records"):
        key = configuration_id(row, model.training.settings)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _checked(column, value: str | None) -> str | None:
    """The value as the runs spell it (flags in lower case); RequestError when it cannot be one
    of the column's."""
    if value is None:
        return None
    label = short_name(column.name)
    if column.kind == NUMBER:
        try:
            number = float(value)
        except ValueError:
            raise RequestError(f"{label}={value}: a number is needed (the runs had "
                               f"{', '.join(column.values)})") from None
        if column.log and column.varies and not number > 0:
            raise RequestError(f"{label}={value}: must be above 0 (the runs had "
                               f"{', '.join(column.values)})")
    elif column.kind == FLAG:
        if value.strip().lower() not in ("true", "false"):
            raise RequestError(f"{label}={value}: true or false")
        return value.strip().lower()
    elif column.kind == CATEGORY and not value.strip():
        raise RequestError(f"{label}: empty value")
    return value


def _names(space, prefix: str) -> str:
    return ", ".join(short_name(c.name) for c in space.columns if c.name.startswith(prefix))


def _text(value) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return str(value)
