"""A run's task attempts laid out in lanes (slots) and its metric series as chart panels."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from vivace_lab.report.plots import job_span_ms
from vivace_lab.store.info import JobInfo
from vivace_lab.web.charts import Bar, Marker, Panel, Series
from vivace_lab.web.queries import SeriesPoint

GIB = 1024.0**3
MB = 1e6
CPU_COLOURS = {"user": "#4e79a7", "system": "#e15759", "iowait": "#f28e2b"}


def task_lanes(jobs: Sequence[JobInfo]) -> list[tuple[int, object]]:
    """(lane, task) for every task attempt with a start and a finish.

    The run record keeps no slot per attempt, so attempts are packed into the fewest lanes in
    which none overlaps another (a lane is freed when its attempt ends): with a pool of N busy
    slots this gives N lanes, one per slot at a time.
    """
    tasks = sorted((t for job in jobs for t in job.tasks
                    if t.start_ms is not None and t.finish_ms is not None),
                   key=lambda t: (t.start_ms, t.finish_ms, t.task_id))
    free: list[tuple[int, int]] = []  # (finish_ms, lane) of lanes in use
    spare: list[int] = []
    lanes = 0
    placed = []
    for task in tasks:
        while free and free[0][0] <= task.start_ms:
            heapq.heappush(spare, heapq.heappop(free)[1])
        if spare:
            lane = heapq.heappop(spare)
        else:
            lane, lanes = lanes, lanes + 1
        heapq.heappush(free, (task.finish_ms, lane))
        placed.append((lane, task))
    return placed


def task_bars(jobs: Sequence[JobInfo], origin_ms: int) -> list[Bar]:
    bars = []
    for lane, task in task_lanes(jobs):
        seconds = (task.finish_ms - task.start_ms) / 1000
        bars.append(Bar(lane, (task.start_ms - origin_ms) / 1000, (task.finish_ms - origin_ms) / 1000,
                        (task.type or "").upper(), f"{task.task_id} {task.status or ''} {seconds:.3f} s",
                        failed=(task.status or "").upper() in ("FAILED", "KILLED")))
    return bars


def job_markers(jobs: Sequence[JobInfo], origin_ms: int) -> list[Marker]:
    markers = []
    for job in jobs:
        start, finish = job_span_ms({"start_ms": job.start_ms, "submit_ms": job.submit_ms,
                                     "finish_ms": job.finish_ms, "done_ms": job.done_ms})
        name = f"{job.phase or 'job'}: {job.name or job.job_id or ''}"
        if start is not None:
            markers.append(Marker((start - origin_ms) / 1000, f"{name} starts"))
        if finish is not None:
            markers.append(Marker((finish - origin_ms) / 1000, f"{name} ends", dashed=True))
    return markers


def _points(points: Sequence[SeriesPoint], origin_ms: int, field: str):
    return [((p.start_ms - origin_ms) / 1000, (p.end_ms - origin_ms) / 1000, getattr(p, field))
            for p in points]


def metric_panels(points: Sequence[SeriesPoint], origin_ms: int) -> list[Panel]:
    """CPU (user, system, iowait stacked), memory, disk and network of one run."""
    def s(label, colour, field, dashed=False):
        return Series(label, colour, _points(points, origin_ms, field), dashed)

    return [
        Panel("CPU, % of the machine", [s(name, CPU_COLOURS[name], f"cpu_{name}")
                                         for name in ("user", "system", "iowait")],
              stacked=True, y_max=100.0),
        Panel("memory, GiB", [s("machine used", "#59a14f", "mem_used_bytes"),
                              s("engine RSS", "#b07aa1", "proc_rss_bytes")], scale=GIB),
        Panel("disk, MB/s", [s("read", "#4e79a7", "disk_read_rate"),
                             s("write", "#e15759", "disk_write_rate")], scale=MB),
        Panel("network, MB/s", [s("rx", "#4e79a7", "net_rx_rate"),
                                s("tx", "#e15759", "net_tx_rate")], scale=MB),
    ]


def overlay_panels(runs: Sequence[tuple[str, str, Sequence[SeriesPoint], int]]) -> list[Panel]:
    """One line per (label, colour, points, origin) in each panel: CPU busy, memory, disk, net."""
    def busy(p: SeriesPoint):
        parts = [v for v in (p.cpu_user, p.cpu_system, p.cpu_iowait) if v is not None]
        return sum(parts) if parts else None

    def total(a, b):
        return None if a is None and b is None else (a or 0.0) + (b or 0.0)

    def lines(value) -> list[Series]:
        return [Series(label, colour, [((p.start_ms - origin) / 1000, (p.end_ms - origin) / 1000,
                                        value(p)) for p in points])
                for label, colour, points, origin in runs]

    return [
        Panel("CPU busy (user + system + iowait), %", lines(busy), y_max=100.0),
        Panel("memory used, GiB", lines(lambda p: p.mem_used_bytes), scale=GIB),
        Panel("disk read + write, MB/s",
              lines(lambda p: total(p.disk_read_rate, p.disk_write_rate)), scale=MB),
        Panel("network rx + tx, MB/s", lines(lambda p: total(p.net_rx_rate, p.net_tx_rate)),
              scale=MB),
    ]


def time_origin_ms(started_ms: int | None, jobs: Sequence[JobInfo],
                   first_sample_ms: float | None) -> int:
    """Zero of a run's time axis: the earliest of its start, its first task attempt (the prepare
    phase runs before the timed run phase starts) and the start of its first sample."""
    candidates = [started_ms, first_sample_ms]
    candidates += [t.start_ms for job in jobs for t in job.tasks]
    candidates += [job_span_ms({"start_ms": j.start_ms, "submit_ms": j.submit_ms})[0] for j in jobs]
    return int(min(c for c in candidates if c is not None))
