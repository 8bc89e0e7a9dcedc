"""The cheapest configuration predicted to meet a deadline (and a budget), the next few, and the one
run whose measurement would most reduce the uncertainty of that answer.

Configurations searched: every engine and cluster the workload's runs used, and the values its
studies gave each configuration key, unless the request pins them. Keys that always changed
together in the runs (a bundle of the grid, such as vivace.slots with the LocalJobRunner's slot
keys, or the map output codec with compression on) are searched together, as the combinations
measured. The workload's parameters (its size
among them) are the request's, or the runs' most common values.

The informative run (ALOJA's sampling made active): among the configurations that could still be
the answer, those whose interval reaches below the deadline (and the budget) and whose cheapest
cost could undercut the recommendation's dearest, the one on which the model families disagree the
most (query by committee). Measuring it tightens the answer where it is least sure.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from dataclasses import dataclass

import yaml

from vivace_lab.models.bundles import key_groups
from vivace_lab.models.dataset import CLUSTER, CONF, ENGINE, PARAM, hardware_settings, short_name
from vivace_lab.models.predict import Estimate, Request, RequestError, estimate, resolve
from vivace_lab.models.training import INTERVAL_LEVEL, WorkloadModel

ALTERNATIVES = 4
MAX_CANDIDATES = 20_000


class NoConfiguration(RequestError):
    """No configuration is predicted to meet the deadline (and budget); the message says how close
    the best one comes."""


@dataclass(frozen=True)
class NextRun:
    estimate: Estimate
    reason: str
    spec_name: str
    spec_text: str  # a study spec for `vivace lab run`


@dataclass(frozen=True)
class Recommendation:
    workload: str
    deadline_s: float
    budget: float | None
    best: Estimate
    alternatives: tuple[Estimate, ...]
    next_run: NextRun
    searched: tuple[str, ...]  # what was searched: engine, cluster, configuration keys
    considered: int  # configurations predicted
    feasible: int  # of which meet the deadline and budget
    unpriced: tuple[str, ...]  # clusters left out for want of a price
    defaulted: tuple[str, ...]
    outside: tuple[str, ...]  # how the request lies beyond the measured range (empty: inside)
    family: str
    level: float


def recommend(model: WorkloadModel, request: Request, deadline_s: float,
              prices: dict[str, float | None], budget: float | None = None,
              alternatives: int = ALTERNATIVES) -> Recommendation:
    if not deadline_s > 0 or math.isinf(deadline_s):
        raise RequestError(f"deadline {deadline_s}: a number of seconds above 0")
    if budget is not None and (not budget >= 0 or math.isinf(budget)):
        raise RequestError(f"budget {budget}: a price of 0 or more")
    base, defaulted = resolve(model, request)
    dimensions = _dimensions(model, request)
    candidates = _candidates(model, base, dimensions)
    estimates = estimate(model, candidates, prices)
    priced = [e for e in estimates if e.hourly_price is not None]
    unpriced = tuple(sorted({e.settings[CLUSTER] for e in estimates if e.hourly_price is None}))
    if not priced:
        raise RequestError(f"no hourly price for cluster(s) {', '.join(unpriced)}: costs need one "
                           f"(`./vivace lab price {unpriced[0]} PRICE`, or the web app's cost page)")
    feasible = sorted((e for e in priced if e.time_s <= deadline_s
                       and (budget is None or e.cost <= budget)),
                      key=lambda e: (e.cost, e.time_s))
    if not feasible:
        raise NoConfiguration(_why_none(request, priced, deadline_s, budget))
    best = feasible[0]
    searched = tuple(short_name(c) for group in dimensions for c in group)
    return Recommendation(
        request.workload, deadline_s, budget, best, tuple(feasible[1:1 + alternatives]),
        _next_run(model, request, priced, best, deadline_s, budget), searched, len(estimates),
        len(feasible), unpriced, tuple(c for c in defaulted
                                       if not any(c in group for group in dimensions)),
        tuple(model.space.outside(best.settings)), model.chosen, INTERVAL_LEVEL)


def _dimensions(model: WorkloadModel, request: Request) -> list[list[str]]:
    """Groups of setting columns searched together."""
    space = model.space
    pinned = {ENGINE} if request.engine else set()
    pinned |= {CLUSTER} if request.cluster else set()
    pinned |= {CONF + key for key in request.sets}
    free = [c.name for c in space.columns if c.varies and c.name not in pinned
            and (c.name in (ENGINE, CLUSTER) or c.name.startswith(CONF))]
    keys = [c for c in free if c.startswith(CONF)]
    return [[c] for c in free if not c.startswith(CONF)] + \
        key_groups({k: model.training.frame[k].tolist() for k in keys})


def _candidates(model: WorkloadModel, base: dict, dimensions: list[list[str]]) -> list[dict]:
    frame = model.training.frame
    choices = []
    for group in dimensions:
        seen = frame[group].drop_duplicates().to_dict("records")
        choices.append([{c: (None if _missing(r[c]) else str(r[c])) for c in group} for r in seen])
    count = math.prod(len(c) for c in choices)
    if count > MAX_CANDIDATES:
        raise RequestError(f"{count} configurations to search, more than {MAX_CANDIDATES}: pin some "
                           f"with --engine, --cluster or --set KEY=VALUE")
    candidates = []
    for combination in itertools.product(*choices):
        settings = dict(base)
        for part in combination:
            settings.update(part)
        settings.update(hardware_settings(model.training.clusters.get(settings[CLUSTER]),
                                          model.training.settings))
        candidates.append(settings)
    return candidates


def _why_none(request: Request, priced: list[Estimate], deadline_s: float,
              budget: float | None) -> str:
    fastest = min(priced, key=lambda e: e.time_s)
    what = f"{request.workload} {_params(request)}".strip()
    if fastest.time_s > deadline_s:
        return (f"no configuration of {what} is predicted to finish within {deadline_s:g} s: "
                f"the fastest is {fastest.describe()} at {fastest.time_s:.3g} s "
                f"({INTERVAL_LEVEL:.0%} interval {fastest.low_s:.3g}-{fastest.high_s:.3g} s)")
    in_time = [e for e in priced if e.time_s <= deadline_s]
    cheapest = min(in_time, key=lambda e: e.cost)
    return (f"no configuration of {what} is predicted to finish within {deadline_s:g} s for at "
            f"most {budget:g}: the cheapest that meets the deadline costs {cheapest.cost:.4g} "
            f"({cheapest.describe()}, {cheapest.time_s:.3g} s)")


def _next_run(model: WorkloadModel, request: Request, priced: list[Estimate], best: Estimate,
              deadline_s: float, budget: float | None) -> NextRun:
    contenders = [e for e in priced if e.low_s <= deadline_s
                  and (budget is None or e.cost_low <= budget) and e.cost_low <= best.cost_high]
    chosen = max(contenders or [best],
                 key=lambda e: (e.spread, -e.measured_runs, -e.cost, -e.time_s))
    reason = (f"the model families disagree by ±{math.expm1(chosen.spread):.0%} here, the most among "
              f"the {len(contenders)} configurations that could still be the answer; "
              f"{chosen.measured_runs} run(s) measured with exactly these settings")
    name, text = _spec(model, request, chosen, reason)
    return NextRun(chosen, reason, name, text)


def _spec(model: WorkloadModel, request: Request, chosen: Estimate, reason: str) -> tuple[str, str]:
    settings = chosen.settings
    params = {short_name(c): _plain(v) for c, v in settings.items()
              if c.startswith(PARAM) and v is not None}
    grid = {short_name(c): [_plain(v)] for c, v in settings.items()
            if c.startswith(CONF) and v is not None}
    body = {"engines": [settings[ENGINE]], "workloads": [{request.workload: params}]}
    if grid:
        body["grid"] = grid
    digest = hashlib.sha256(yaml.safe_dump(body, sort_keys=True).encode()).hexdigest()[:8]
    name = f"next-{request.workload}-{digest}"
    spec = {"name": name,
            "description": f"the most informative next run for {request.workload} "
                           f"(vivace lab recommend)",
            "seed": model.seed, "repeats": 1, **body}
    header = (f"# Measure this run on cluster {settings[CLUSTER]}: {reason}.\n"
              f"# Predicted {chosen.time_s:.3g} s ({INTERVAL_LEVEL:.0%} interval "
              f"{chosen.low_s:.3g}-{chosen.high_s:.3g} s). Run it with `./vivace lab run FILE`.\n")
    return name, header + yaml.safe_dump(spec, sort_keys=False, default_flow_style=None, width=100)


def _params(request: Request) -> str:
    return " ".join(f"{k}={v}" for k, v in request.params.items())


def _plain(text: str):
    """Numbers and flags as YAML scalars, the rest as text."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
