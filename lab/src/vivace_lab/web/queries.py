"""The web app's reads: filtered pages of runs, distinct values for the filter form, metric
series downsampled in SQL, and durations grouped by one dimension. Everything that grows with
the number of runs or samples is paged or aggregated by the database, never loaded whole."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Select, Text, func, select, type_coerce
from sqlalchemy.orm import Session

from vivace_lab.record import SUCCEEDED
from vivace_lab.store.coltypes import to_epoch_ms
from vivace_lab.store.info import RunInfo
from vivace_lab.store.runs import read_run_rows, runs_query
from vivace_lab.store.schema import Cluster, Counter, Job, MetricSampleRow, Run, RunConfig, Study
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.filters import COLUMNS, RunFilter

#: most points a drawn series gets: about one per pixel of the chart's width
MAX_POINTS = 600


@dataclass(frozen=True)
class FilterOptions:
    """What the runs form offers to choose from."""

    workloads: list[str]
    engines: list[str]
    clusters: list[str]
    studies: list[str]
    override_keys: list[str]  # configuration keys some study set


def filter_options(session: Session) -> FilterOptions:
    def values(column, *where) -> list[str]:
        query = select(column).where(*where).distinct().order_by(column)
        return [v for v in session.scalars(query) if v]

    return FilterOptions(
        workloads=values(Run.workload), engines=values(Run.engine), clusters=values(Cluster.name),
        studies=values(Study.name), override_keys=sorted(_json_keys(session, Run.overrides)),
    )


def _json_keys(session: Session, column, *where) -> set[str]:
    """The keys of a JSON object column over the runs ``where`` selects.

    Read from the distinct documents of ``runs`` (a study's runs share a few) rather than from
    ``run_config``, whose key index needs a row lookup per entry: 1.5 s with 10,000 runs.
    """
    keys: set[str] = set()
    for (document,) in session.execute(select(type_coerce(column, Text)).where(*where).distinct()):
        if isinstance(document, str):
            document = json.loads(document)
        keys.update(document or {})
    return keys


def run_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Run)) or 0


def filtered(filt: RunFilter) -> Select:
    return filt.ordered(filt.apply(runs_query()))


def run_page(session: Session, filt: RunFilter) -> tuple[list[RunInfo], int]:
    """The filter's page of runs and how many runs match in all."""
    matching = filt.apply(runs_query())
    total = session.scalar(select(func.count()).select_from(
        matching.order_by(None).with_only_columns(Run.id).subquery())) or 0
    return read_run_rows(session, filt.paged(filt.ordered(matching))), total


def all_filtered(session: Session, filt: RunFilter) -> list[RunInfo]:
    return read_run_rows(session, filtered(filt))


# ---- metric series ------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeriesPoint:
    """Metrics over ``[start_ms, end_ms]``: one sample, or the mean of a bucket of them."""

    start_ms: float
    end_ms: float
    cpu_user: float | None
    cpu_system: float | None
    cpu_iowait: float | None
    mem_used_bytes: float | None
    disk_read_rate: float | None  # bytes/s
    disk_write_rate: float | None
    net_rx_rate: float | None
    net_tx_rate: float | None
    proc_cpu_percent: float | None
    proc_rss_bytes: float | None


def sample_counts(session: Session, run_ids: list[int]) -> dict[int, int]:
    if not run_ids:
        return {}
    rows = session.execute(select(MetricSampleRow.run_id, func.count())
                           .where(MetricSampleRow.run_id.in_(run_ids))
                           .group_by(MetricSampleRow.run_id))
    return {run_id: count for run_id, count in rows}


def series(session: Session, run_id: int, max_points: int = MAX_POINTS) -> list[SeriesPoint]:
    """The run's samples in time order, averaged in buckets of equal time when there are more
    than ``max_points`` (the database does the averaging)."""
    s = MetricSampleRow
    first, last, count = session.execute(
        select(func.min(s.t_ms), func.max(s.t_ms), func.count()).where(s.run_id == run_id)).one()
    if not count:
        return []
    width_ms = max(1, -(-(last - first + 1) // max_points)) if count > max_points else None
    seconds = func.sum(s.interval_s)

    def rate(column) -> ColumnElement:
        return func.sum(column) / func.nullif(seconds, 0)

    measures = (
        func.min(s.t_ms - s.interval_s * 1000), func.max(s.t_ms),
        func.avg(s.cpu_user), func.avg(s.cpu_system), func.avg(s.cpu_iowait),
        func.avg(s.mem_used_bytes), rate(s.disk_read_bytes), rate(s.disk_write_bytes),
        rate(s.net_rx_bytes), rate(s.net_tx_bytes), func.avg(s.proc_cpu_percent),
        func.avg(s.proc_rss_bytes),
    )
    if width_ms is None:
        bucket = s.id  # one sample per group
    else:
        bucket = (s.t_ms - first) // width_ms
    query = (select(*measures).where(s.run_id == run_id).group_by(bucket)
             .order_by(func.max(s.t_ms)))
    return [SeriesPoint(*(None if v is None else float(v) for v in row))
            for row in session.execute(query)]


# ---- dimensions: what runs are grouped by ----------------------------------------------------------

DIMENSION_HELP = ("engine, cluster, maps, reduces, io_sort_mb, map_output_codec, slots, "
                  "param:NAME (a workload parameter), conf:KEY (any configuration key)")


def dimension(name: str, parameter: str = "by") -> ColumnElement:
    """The SQL expression of a dimension's value for each run (joined to its cluster)."""
    if name == "engine":
        return Run.engine
    if name == "cluster":
        return Cluster.name
    if name in COLUMNS:
        return COLUMNS[name]
    kind, sep, key = name.partition(":")
    if sep and key and kind == "param":
        return Run.params[key].as_string()
    if sep and key and kind == "conf":
        return (select(RunConfig.value).where(RunConfig.run_id == Run.id, RunConfig.key == key)
                .scalar_subquery())
    raise bad_parameter(parameter, f"'{name}' is not a dimension: {DIMENSION_HELP}")


def dimension_choices(session: Session, workload: str | None = None) -> list[str]:
    """Dimensions worth offering for a workload: columns, its parameters, keys its studies set."""
    where = [Run.workload == workload] if workload else []
    return ["engine", "cluster", *COLUMNS,
            *(f"param:{p}" for p in sorted(_json_keys(session, Run.params, *where))),
            *(f"conf:{k}" for k in sorted(_json_keys(session, Run.overrides, *where)))]


def durations_by(session: Session, filt: RunFilter, by: str) -> dict[str, list[tuple[int, float]]]:
    """(run id, duration) of the filter's successful runs, grouped by the dimension's value
    (``"–"`` for runs without one), groups in order of their value."""
    value = dimension(by).label("value")
    query = filt.apply(select(value, Run.id, Run.duration_s).join(Cluster, Cluster.id == Run.cluster_id)
                       .where(Run.status == SUCCEEDED, Run.duration_s.is_not(None)))
    groups: dict[str, list[tuple[int, float]]] = {}
    for v, run_id, duration in session.execute(query.order_by(Run.id)):
        groups.setdefault("–" if v is None else str(v), []).append((run_id, duration))
    return dict(sorted(groups.items(), key=lambda item: _natural(item[0])))


def _natural(text: str):
    """Numbers in numeric order, before words."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def run_phase_counters(session: Session, run_ids: list[int]) -> dict[int, dict[str, int]]:
    """run id -> {"group.name": value summed over its run-phase jobs}."""
    out: dict[int, dict[str, int]] = {}
    for start in range(0, len(run_ids), 500):
        chunk = run_ids[start:start + 500]
        rows = session.execute(
            select(Job.run_id, Counter.group_name, Counter.name, func.sum(Counter.value))
            .join(Job, Job.id == Counter.job_id)
            .where(Job.run_id.in_(chunk), Job.phase == "run")
            .group_by(Job.run_id, Counter.group_name, Counter.name))
        for run_id, group, name, value in rows:
            out.setdefault(run_id, {})[f"{_short_group(group)}.{name}"] = int(value)
    return out


def _short_group(group: str) -> str:
    """``org.apache.hadoop.mapreduce.TaskCounter`` -> ``TaskCounter``."""
    return group.rsplit(".", 1)[-1] if "." in group and " " not in group else group


# ---- configurations and their cost -------------------------------------------------------------

@dataclass(frozen=True)
class Configuration:
    """The successful runs of one workload with one engine, cluster, parameters and overrides."""

    workload: str
    engine: str
    cluster: str
    params: dict[str, str]
    overrides: dict[str, str]
    runs: int
    mean_s: float
    min_s: float
    hourly_price: float | None
    first_run: int

    @property
    def cost(self) -> float | None:
        """Cost of a mean run: seconds x price per hour / 3600."""
        return None if self.hourly_price is None else self.mean_s * self.hourly_price / 3600.0


def configurations(session: Session, workload: str) -> list[Configuration]:
    """Every configuration the workload's successful runs used, with mean and best time."""
    params, overrides = Run.params, Run.overrides
    query = (select(Run.engine, Cluster.name, params, overrides, func.count(),
                    func.avg(Run.duration_s), func.min(Run.duration_s), Cluster.hourly_price,
                    func.min(Run.id))
             .join(Cluster, Cluster.id == Run.cluster_id)
             .where(Run.workload == workload, Run.status == SUCCEEDED,
                    Run.duration_s.is_not(None))
             .group_by(Run.engine, Cluster.name, Cluster.hourly_price, params, overrides))
    return [Configuration(workload, engine, cluster, dict(p or {}), dict(o or {}), n, float(mean),
                          float(best), price, first)
            for engine, cluster, p, o, n, mean, best, price, first in session.execute(query)]


def run_start_ms(session: Session, run_id: int) -> int:
    """Where a run's time axis starts: the earlier of its start and its first sample's start."""
    started = to_epoch_ms(session.scalar(select(Run.started_at).where(Run.id == run_id)))
    s = MetricSampleRow
    first = session.scalar(select(func.min(s.t_ms - s.interval_s * 1000)).where(s.run_id == run_id))
    return int(min(started, first)) if first is not None else started


def busiest_workload(session: Session) -> str | None:
    """The workload with the most successful runs: what a page shows before one is chosen."""
    return session.scalar(select(Run.workload).where(Run.status == SUCCEEDED)
                          .group_by(Run.workload).order_by(func.count().desc(), Run.workload)
                          .limit(1))


def studies_with(session: Session, workload: str) -> set[int]:
    """Ids of the studies that hold runs of ``workload``."""
    query = select(Run.study_id).where(Run.workload == workload,
                                       Run.study_id.is_not(None)).distinct()
    return {study_id for (study_id,) in session.execute(query)}
