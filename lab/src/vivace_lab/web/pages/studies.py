"""Studies: the stored studies, the sleep test table and TestDFSIO's results explained."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import select

from vivace_lab.record import SUCCEEDED
from vivace_lab.store.info import RunInfo
from vivace_lab.store.schema import Run
from vivace_lab.web import queries
from vivace_lab.web.app import render, store_of
from vivace_lab.web.filters import RunFilter

router = APIRouter()

DFSIO_WORKLOADS = ("dfsio-write", "dfsio-read")
#: results.dfsio field -> (column title, what it means)
DFSIO_METRICS = {
    "throughput_mb_s": ("throughput, MiB/s",
                        "TestDFSIO's “Throughput mb/sec”: all bytes over the maps' I/O times "
                        "summed, i.e. the rate of one map at a time; it does not grow with "
                        "concurrency."),
    "avg_io_rate_mb_s": ("average IO rate, MiB/s",
                         "“Average IO rate mb/sec”: the mean of each file's own rate; a few "
                         "fast files pull it above the throughput."),
    "io_rate_std_dev_mb_s": ("IO rate std. dev., MiB/s",
                             "“IO rate std deviation”: how much the files' rates differ; large "
                             "values mean uneven disks or contention."),
    "job_wall_ms": ("execution time, s",
                    "The TestDFSIO job from the client's submission to its completion, as "
                    "“Test exec time sec” (shown here in seconds)."),
    "aggregate_bandwidth_mb_s": ("aggregate bandwidth, MiB/s",
                                 "All bytes over the job's wall time: what the cluster moved "
                                 "per second with every map running at once."),
}


@dataclass(frozen=True)
class SleepRow:
    run: RunInfo
    maps: int | None
    tasks_per_s: float | None


@dataclass(frozen=True)
class SleepSystem:
    label: str  # engine on cluster, maps x map_ms
    rows: list[SleepRow]

    @property
    def mean_time(self) -> float | None:
        times = [r.run.duration_s for r in self.rows if r.run.duration_s is not None]
        return statistics.fmean(times) if times else None

    @property
    def mean_rate(self) -> float | None:
        rates = [r.tasks_per_s for r in self.rows if r.tasks_per_s is not None]
        return statistics.fmean(rates) if rates else None


@router.get("/studies", response_class=HTMLResponse)
def studies_page(request: Request) -> HTMLResponse:
    return render(request, "studies.html", studies=store_of(request).studies())


@router.get("/studies/sleep", response_class=HTMLResponse)
def sleep_page(request: Request) -> HTMLResponse:
    with store_of(request).reading() as session:
        runs = queries.all_filtered(session, RunFilter(workload="sleep", status=SUCCEEDED,
                                                       sort="id", descending=False))
    systems: dict[str, list[SleepRow]] = {}
    for run in runs:
        maps = _int(run.params.get("maps"))
        label = (f"{run.engine} on {run.cluster}: {maps if maps is not None else '?'} maps × "
                 f"{run.params.get('map_ms', '?')} ms")
        rate = maps / run.duration_s if maps and run.duration_s else None
        systems.setdefault(label, []).append(SleepRow(run, maps, rate))
    return render(request, "sleep.html", systems=[SleepSystem(k, v) for k, v in systems.items()])


@router.get("/studies/dfsio", response_class=HTMLResponse)
def dfsio_page(request: Request) -> HTMLResponse:
    groups: dict[str, list[tuple[RunInfo, dict]]] = {}
    with store_of(request).reading() as session:
        for workload in DFSIO_WORKLOADS:
            runs = queries.all_filtered(session, RunFilter(workload=workload, status=SUCCEEDED,
                                                           sort="id", descending=False))
            results = _dfsio_results(session, [r.id for r in runs])
            for run in runs:
                label = (f"{workload} · {run.engine} on {run.cluster}: "
                         f"{run.params.get('files', '?')} files × {run.params.get('file_mb', '?')} MB")
                groups.setdefault(label, []).append((run, results.get(run.id) or {}))
    means = {label: {field: _mean(r.get(field) for _, r in rows) for field in DFSIO_METRICS}
             for label, rows in groups.items()}
    return render(request, "dfsio.html", groups=groups, means=means, metrics=DFSIO_METRICS)


def _dfsio_results(session, run_ids: list[int]) -> dict[int, dict]:
    out = {}
    for start in range(0, len(run_ids), 500):
        chunk = run_ids[start:start + 500]
        query = select(Run.id, Run.record[("results", "dfsio")]).where(Run.id.in_(chunk))
        for run_id, value in session.execute(query):
            out[run_id] = value if isinstance(value, dict) else {}
    return out


def _mean(values) -> float | None:
    numbers = [float(v) for v in values if isinstance(v, (int, float))]
    return statistics.fmean(numbers) if numbers else None


def _int(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None
