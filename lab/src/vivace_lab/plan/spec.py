"""Study specs: YAML naming workloads, engines, a grid of configuration values and repeats.

Everything is checked before anything runs; an error names the file and line.
"""

from __future__ import annotations

import difflib
import itertools
import os
import random
from dataclasses import dataclass, field

from vivace_lab.engines.cluster_shape import CLUSTER_KEYS, ClusterShape
from vivace_lab.engines.names import CLUSTER_ENGINES, ENGINE_WORKLOADS, ENGINES
from vivace_lab.engines.real_cluster_shape import REAL_CLUSTER_KEYS, RealClusterShape
from vivace_lab.engines.spark.settings import SPARK_PREFIX
from vivace_lab.engines.spark.settings import key_problem as spark_key_problem
from vivace_lab.plan.hadoop_keys import HadoopKeys
from vivace_lab.plan.yaml_source import Located, SpecError, load_located
from vivace_lab.workloads.catalogue import WORKLOADS

TOP_LEVEL_KEYS = ("name", "description", "seed", "repeats", "engines", "workloads", "grid", "sample",
                  "lustre_root", "cluster", "order")
# How the queue interleaves runs (plan/queue.py): every combination once per round, or workload by
# workload with each repeat reversing the engines' order (the timing mode of `vivace lab bench`).
ORDERS = ("rounds", "alternate")
# The engines that run in the driver's JVM and can take their data and output from lustre://;
# hadoop-yarn keeps HDFS and spark its own file:// data.
LUSTRE_ENGINES = ("vivace", "hadoop-local")
WORKLOAD_OPTION_KEYS = ("engines",)
MAX_STUDY_NAME = 200  # with ".html", within the 255 bytes of a file name


@dataclass(frozen=True)
class WorkloadPoint:
    """A workload with one value for each of its parameters, and the engines that run it."""

    workload: str
    params: dict[str, str]
    engines: tuple[str, ...]
    overrides: dict[str, str] = field(default_factory=dict)  # this point's own -D keys, beside the grid's


@dataclass(frozen=True)
class StudySpec:
    name: str
    description: str
    seed: int
    repeats: int
    engines: tuple[str, ...]  # the first is the baseline of every ratio
    workload_points: tuple[WorkloadPoint, ...]
    grid_points: tuple[dict[str, str], ...]  # configuration overrides, one dict per point
    text: str = field(repr=False, default="")
    lustre_root: str | None = None  # an absolute directory: data and output on lustre:// under it
    cluster: ClusterShape | RealClusterShape = ClusterShape()  # the cluster the engines on one share
    order: str = "rounds"  # one of ORDERS


def parse_spec(text: str, source: str, keys: HadoopKeys) -> StudySpec:
    root = load_located(text, source)
    at = _Locator(source)
    top = at.mapping(root, "the spec")
    for key, value in top.items():
        if key not in TOP_LEVEL_KEYS:
            raise at.error(value, f"unknown setting '{key}' (known: {', '.join(TOP_LEVEL_KEYS)})")
    name = _study_name(at, at.required(top, "name", root))
    seed = at.integer(top.get("seed"), "seed", default=0, minimum=0)
    repeats = at.integer(top.get("repeats"), "repeats", default=3, minimum=1)
    engines = _engines(at, at.required(top, "engines", root))
    points = _workload_points(at, at.required(top, "workloads", root), engines)
    grid = _grid(at, top.get("grid"), keys, {e for point in points for e in point.engines})
    sample = at.integer(top.get("sample"), "sample", default=0, minimum=1)
    if sample and sample < len(grid):
        chosen = sorted(random.Random(seed).sample(range(len(grid)), sample))
        grid = [grid[i] for i in chosen]
    description = at.text(top["description"], "description") if "description" in top else ""
    lustre_root = _lustre_root(at, top["lustre_root"], engines) if "lustre_root" in top else None
    cluster = _cluster(at, top["cluster"], engines) if "cluster" in top else ClusterShape()
    order = _order(at, top["order"]) if "order" in top else "rounds"
    return StudySpec(name, description, seed, repeats, engines, tuple(points), tuple(grid), text, lustre_root,
                     cluster, order)


class _Locator:
    """Reads Located values, raising SpecError that point at the offending line."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, located: Located, message: str) -> SpecError:
        return SpecError(f"{self.source}:{located.line}: {message}")

    def required(self, mapping: dict[str, Located], key: str, parent: Located) -> Located:
        if key not in mapping:
            raise self.error(parent, f"'{key}' is missing")
        return mapping[key]

    def mapping(self, located: Located, what: str) -> dict[str, Located]:
        if not isinstance(located.value, dict):
            raise self.error(located, f"{what} must be a mapping of key: value")
        return located.value

    def sequence(self, located: Located, what: str) -> list[Located]:
        if isinstance(located.value, list):
            return located.value
        return [located]  # a single value stands for a list of one

    def text(self, located: Located, what: str) -> str:
        if not isinstance(located.value, (str, int, float)) or isinstance(located.value, bool):
            raise self.error(located, f"{what} must be a word or number")
        value = str(located.value).strip()
        if not value:
            raise self.error(located, f"{what} is empty")
        return value

    def integer(self, located: Located | None, what: str, default: int, minimum: int) -> int:
        if located is None:
            return default
        value = located.value
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.error(located, f"{what} must be a whole number of at least {minimum}, not {value!r}")
        return value


def study_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a study, or None. The name is a file name in the lab home (the
    report <lab home>/reports/<name>.html), so it must not lead out of it."""
    if name in (".", "..") or "/" in name or "\\" in name:
        return f"a study name is a file name, not a path: '{name}' (no '/' or '\\', not '.' or '..')"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"a study name cannot hold control characters: {name!r}"
    if len(name.encode()) > MAX_STUDY_NAME:
        return f"a study name is at most {MAX_STUDY_NAME} bytes (UTF-8), not {len(name.encode())}"
    return None


def _study_name(at: _Locator, located: Located) -> str:
    name = at.text(located, "name")
    problem = study_name_problem(name)
    if problem:
        raise at.error(located, problem)
    return name


def _engines(at: _Locator, located: Located) -> tuple[str, ...]:
    names = []
    for item in at.sequence(located, "engines"):
        name = at.text(item, "an engine")
        if name not in ENGINE_WORKLOADS:
            raise at.error(item, f"unknown engine '{name}' (known: {', '.join(ENGINE_WORKLOADS)})")
        if name in names:
            raise at.error(item, f"engine '{name}' is listed twice")
        names.append(name)
    return tuple(names)


def _order(at: _Locator, located: Located) -> str:
    order = at.text(located, "order")
    if order not in ORDERS:
        raise at.error(located, f"order must be one of {', '.join(ORDERS)}, not '{order}'")
    return order


def _lustre_root(at: _Locator, located: Located, engines: tuple[str, ...]) -> str:
    root = at.text(located, "lustre_root")
    if not os.path.isabs(root):
        raise at.error(located, f"lustre_root must be an absolute directory, not '{root}'")
    others = [e for e in engines if e not in LUSTRE_ENGINES]
    if others:
        raise at.error(located, f"lustre_root applies to {' and '.join(LUSTRE_ENGINES)} only; "
                                f"{', '.join(others)} keep their own file systems: run them in another study")
    return os.path.normpath(root)


CLUSTER_TYPES = ("mini", "real")


def _cluster(at: _Locator, located: Located, engines: tuple[str, ...]) -> ClusterShape | RealClusterShape:
    if not any(e in CLUSTER_ENGINES for e in engines):
        raise at.error(located, f"cluster shapes the cluster of {', '.join(CLUSTER_ENGINES)}; "
                                f"the study runs none of them")
    settings = at.mapping(located, "cluster")
    kind = at.text(settings["type"], "cluster type") if "type" in settings else "mini"
    if kind not in CLUSTER_TYPES:
        raise at.error(settings["type"], f"cluster type must be one of {', '.join(CLUSTER_TYPES)}, not '{kind}'")
    if kind == "real":
        return _real_cluster(at, located, settings)
    values: dict[str, int | float] = {}
    for key, value in settings.items():
        _known_cluster_key(at, key, value, "the mini-cluster", ("type", *CLUSTER_KEYS), REAL_CLUSTER_KEYS, "type: real")
        if key == "type":
            continue
        values[key] = _cluster_number(at, key, value, *ClusterShape.KEYS[key])
    shape = ClusterShape(**values)
    if shape.problem():
        raise at.error(located, f"cluster: {shape.problem()}")
    return shape


def _known_cluster_key(at: _Locator, key: str, value: Located, what: str, known, others, other: str) -> None:
    if key not in known:
        note = f" (a setting of {other})" if key in others else ""
        raise at.error(value, f"{what} has no setting '{key}'{note} (its settings: {', '.join(known)})")


def _cluster_number(at: _Locator, key: str, value: Located, kind: type, minimum: float) -> int | float:
    number = value.value
    if isinstance(number, bool) or not isinstance(number, (int, float)) or \
            (kind is int and not isinstance(number, int)) or number < minimum:
        what = "a whole number" if kind is int else "a number"
        raise at.error(value, f"cluster {key} must be {what} of at least {minimum:g}, not {number!r}")
    return kind(number)


def _real_cluster(at: _Locator, located: Located, settings: dict[str, Located]) -> RealClusterShape:
    values: dict[str, object] = {}
    for key, value in settings.items():
        _known_cluster_key(at, key, value, "a real cluster", REAL_CLUSTER_KEYS, CLUSTER_KEYS, "the mini-cluster")
        if key == "type":
            continue
        if key == "link":
            values["links"] = tuple(at.text(rate, "cluster link").lower() for rate in at.sequence(value, "link"))
            continue
        values[key] = _cluster_number(at, key, value, *RealClusterShape.KEYS[key])
    shape = RealClusterShape(**values)
    if shape.problem():
        raise at.error(settings.get("link", located), f"cluster {shape.problem()}")
    return shape


def _workload_points(at: _Locator, located: Located, engines: tuple[str, ...]) -> list[WorkloadPoint]:
    points: list[WorkloadPoint] = []
    for item in at.sequence(located, "workloads"):
        if isinstance(item.value, dict):
            if len(item.value) != 1:
                raise at.error(item, "each workload entry is 'name: {param: value, ...}'")
            [(name, settings)] = item.value.items()
        else:
            name, settings = at.text(item, "a workload"), Located({}, item.line)
        workload = WORKLOADS.get(name)
        if workload is None:
            raise at.error(item, f"unknown workload '{name}'{_near_miss(name, WORKLOADS)} "
                                 f"(known: {', '.join(WORKLOADS)})")
        values = at.mapping(settings, f"the settings of {name}") if settings.value is not None else {}
        runs_on = engines
        choices: dict[str, list[str]] = {}
        for key, value in values.items():
            if key == "engines":
                runs_on = _engines(at, value)
                stray = [e for e in runs_on if e not in engines]
                if stray:
                    raise at.error(value, f"{name} names engines the study does not list: {', '.join(stray)}")
                continue
            param = workload.param(key)
            if param is None:
                known = [p.name for p in workload.params]
                raise at.error(value, f"{name} has no parameter '{key}'{_near_miss(key, known)} "
                                      f"(its parameters: {', '.join(known)})")
            choices[key] = []
            for choice in at.sequence(value, key):
                try:
                    choices[key].append(str(param.parse(choice.value)))
                except ValueError as e:
                    raise at.error(choice, f"{name}: {e}") from None
        missing = [p for p in workload.params if p.required and p.name not in choices]
        if missing:
            raise at.error(item, f"{name} needs the parameter '{missing[0].name}': {missing[0].help}")
        for engine in runs_on:
            why = ENGINES[engine].unsupported.get(name)
            if why:
                raise at.error(item, f"{name} is unsupported on {engine}: {why} (name the engines that "
                                     f"run it: '{name}: {{engines: [...]}}')")
            if name not in ENGINE_WORKLOADS[engine]:
                raise at.error(item, f"engine '{engine}' does not run {name} "
                                     f"(it runs: {', '.join(ENGINE_WORKLOADS[engine])})")
        defaults = {p.name: str(p.default) for p in workload.params}
        for combination in _product(choices):
            points.append(WorkloadPoint(name, {**defaults, **combination}, runs_on))
    if not points:
        raise at.error(located, "no workloads listed")
    return points


def _grid(at: _Locator, located: Located | None, keys: HadoopKeys,
          engines: set[str]) -> list[dict[str, str]]:
    """Every grid point goes to every engine: Spark's keys (spark.*) only with the spark engine
    alone, Hadoop's only without it. An entry whose values are mappings is a bundle (ALOJA's
    configurations): its name is free, and each value sets all the keys of its mapping together
    (``slots: [{vivace.slots: 1, mapreduce.local.map.tasks.maximum: 1}, ...]``)."""
    if located is None:
        return [{}]
    choices: dict[str, list[dict[str, str]]] = {}
    set_by: dict[str, str] = {}  # key -> the grid entry that sets it
    for name, value in at.mapping(located, "grid").items():
        items = at.sequence(value, name)
        bundle = any(isinstance(choice.value, dict) for choice in items)
        if not bundle:
            _check_grid_key(at, name, value, engines)
        choices[name] = []
        for choice in items:
            if bundle:
                settings = at.mapping(choice, f"each value of the bundle '{name}'").items()
                if not settings:
                    raise at.error(choice, f"{name}: a bundle's value sets at least one key")
            else:
                settings = [(name, choice)]
            point = {}
            for key, item in settings:
                if bundle:
                    _check_grid_key(at, key, item, engines)
                point[key] = _grid_value(at, key, item, keys)
                other = set_by.setdefault(key, name)
                if other != name:
                    raise at.error(item, f"'{key}' is set by both '{other}' and '{name}' in the grid")
            choices[name].append(point)
    return [{k: v for point in combination.values() for k, v in point.items()}
            for combination in _product(choices)] or [{}]


def _check_grid_key(at: _Locator, key: str, value: Located, engines: set[str]) -> None:
    if key.startswith(SPARK_PREFIX) and engines - {"spark"}:
        raise at.error(value, f"'{key}' is a Spark setting, but {', '.join(sorted(engines - {'spark'}))} "
                              f"would get it too (a grid applies to every engine of the study)")
    if "spark" in engines and spark_key_problem(key):
        raise at.error(value, f"engine spark: {spark_key_problem(key)}")


def _grid_value(at: _Locator, key: str, choice: Located, keys: HadoopKeys) -> str:
    if isinstance(choice.value, (dict, list)) or choice.value is None:
        raise at.error(choice, f"{key}: each value must be a single word or number")
    problem = None if key.startswith(SPARK_PREFIX) else keys.check(key, choice.value)
    if problem:
        raise at.error(choice, problem)
    return str(choice.value).lower() if isinstance(choice.value, bool) else str(choice.value)


def _near_miss(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _product(choices: dict[str, list[str]]):
    names = list(choices)
    for values in itertools.product(*(choices[n] for n in names)):
        yield dict(zip(names, values))
