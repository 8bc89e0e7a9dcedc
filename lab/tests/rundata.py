"""Realistic runs for the store tests: the run record in data/terasort-vivace.json (a 2-map,
1-reduce TeraSort with Hadoop's full default configuration) and a sampler's 1-second readings."""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from pathlib import Path

from vivace_lab.metrics.sample import CoreCpu, MetricSample
from vivace_lab.record import FAILED, SUCCEEDED, RunResult

DATA = Path(__file__).resolve().parent / "data"


@cache
def _record() -> dict:
    return json.loads((DATA / "terasort-vivace.json").read_text())


def terasort_record() -> dict:
    return copy.deepcopy(_record())


def samples(start_ms: int, count: int, cores: int = 4) -> list[MetricSample]:
    """``count`` one-second samples from ``start_ms``: a busy sort (user CPU, disk writes) with
    distinct values everywhere, so a mix-up of columns or rows shows."""
    out = []
    for i in range(count):
        busy = 20.0 + 60.0 * math.sin(i / 7.0) ** 2
        per_core = tuple(
            CoreCpu(user=round(busy + c, 3), system=round(4.0 + c / 10, 3),
                    iowait=round(1.5 + (i % 5) / 4, 3), steal=0.0,
                    idle=round(100.0 - busy - c - 4.0 - c / 10 - 1.5 - (i % 5) / 4, 3))
            for c in range(cores))
        out.append(MetricSample(
            t_ms=start_ms + 1000 * (i + 1),
            interval_s=1.0 if i else 0.998,
            cpu_user=round(sum(c.user for c in per_core) / cores, 4),
            cpu_system=round(sum(c.system for c in per_core) / cores, 4),
            cpu_iowait=round(sum(c.iowait for c in per_core) / cores, 4),
            cpu_steal=0.0,
            cores=per_core,
            mem_used_bytes=3_221_225_472 + 1_048_576 * i,
            mem_available_bytes=12_884_901_888 - 1_048_576 * i,
            disk_read_bytes=4096 * (i % 3),
            disk_write_bytes=8_388_608 + 65_536 * i,
            disk_read_ops=i % 3,
            disk_write_ops=64 + i,
            net_rx_bytes=1200 + i,
            net_tx_bytes=900 + 2 * i,
            proc_cpu_percent=round(busy * 3.2, 3),
            proc_rss_bytes=805_306_368 + 4096 * i,
            proc_count=3,
        ))
    return out


def terasort_result(*, cluster: str = "lab-1x2", engine: str = "vivace", repeat: int = 0,
                    overrides: dict[str, str] | None = None, sample_count: int = 5,
                    shift_ms: int = 0) -> RunResult:
    """A succeeded TeraSort run built from the record; ``overrides`` replace the record's (and
    are applied to its configuration, as the driver would have), ``shift_ms`` moves it in time."""
    record = terasort_record()
    if overrides is not None:
        record["overrides"] = dict(overrides)
        record["configuration"].update(overrides)
    _shift(record, shift_ms)
    return RunResult(
        workload="terasort",
        engine=engine,
        cluster=cluster,
        params=dict(record["params"]),
        overrides=dict(record["overrides"]),
        status=SUCCEEDED,
        started_ms=record["started_ms"],
        finished_ms=record["finished_ms"],
        duration_s=(record["finished_ms"] - record["started_ms"]) / 1000,
        input_bytes=record["data"]["actual_bytes"],
        validation_status=record["validation"]["status"],
        validation_detail=record["validation"]["detail"],
        output_checksum=record["validation"]["output_checksum"],
        repeat=repeat,
        record=record,
        samples=samples(record["started_ms"] - 1000, sample_count),
    )


def failed_result(*, cluster: str = "lab-1x2") -> RunResult:
    """A run that failed before the driver wrote a record: no record, no jobs, no samples."""
    return RunResult(
        workload="sort", engine="hadoop-local", cluster=cluster,
        params={"bytes": "16777216", "maps": "2", "reduces": "1"},
        overrides={"mapreduce.task.io.sort.mb": "16"},
        status=FAILED, started_ms=1763766100000, finished_ms=1763766101500,
        failure="driver exited with status 1: java.lang.OutOfMemoryError: Java heap space",
        validation_status="SKIPPED")


def _shift(record: dict, shift_ms: int) -> None:
    if not shift_ms:
        return
    for key in ("started_ms", "finished_ms"):
        record[key] += shift_ms
    for job in record["jobs"]:
        for key in ("submit_ms", "start_ms", "finish_ms", "done_ms"):
            if job.get(key) is not None:
                job[key] += shift_ms
        for task in job["tasks"]:
            task["start_ms"] += shift_ms
            task["finish_ms"] += shift_ms
