"""Runs out of the store: CSV/JSON tables (one row per run) and a HiBench-style report."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from typing import Any, TextIO

from vivace_lab.record import SUCCEEDED
from vivace_lab.store.info import RunInfo

#: columns of the CSV/JSON export before the params and the grid's configuration keys
BASE_COLUMNS = (
    "id", "study_id", "cluster", "workload", "engine", "repeat", "status", "failure",
    "started", "finished", "duration_s", "input_bytes", "validation_status",
    "validation_detail", "output_checksum", "maps", "reduces", "io_sort_mb",
    "map_output_codec", "slots",
)
PARAM_PREFIX = "param:"
CONF_PREFIX = "conf:"

#: HiBench's report layout (conf/hibench.conf, ``hibench.report.formats``)
HIBENCH_FORMAT = "%-12s %-10s %-8s %-20s %-20s %-20s %-20s"
HIBENCH_COLUMNS = ("Type", "Date", "Time", "Input_data_size", "Duration(s)",
                   "Throughput(bytes/s)", "Throughput/node")


def export_runs(store, fmt: str, out: TextIO, **filters) -> int:
    """Write the runs ``store.runs(**filters)`` selects to ``out``; returns how many.

    One row per run: the run's own columns, then one ``param:<name>`` column per workload parameter
    and one ``conf:<key>`` column per configuration key the grid set (any run's overrides), holding
    the run's effective value of that key. In JSON each run is an object whose ``params`` and
    ``configuration`` are nested objects instead. Times are ISO 8601 UTC with milliseconds.
    """
    if fmt not in ("csv", "json"):
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    runs = store.runs(**filters)
    grid_keys = sorted({k for run in runs for k in run.overrides})
    config = store.config_values(grid_keys, **filters) if grid_keys else {}
    return write_runs(runs, config, fmt, out)


def write_runs(runs: list[RunInfo], config: dict[int, dict[str, str | None]], fmt: str,
               out: TextIO) -> int:
    """``export_runs`` for runs already read: ``config`` holds each run's effective value of every
    key any of the runs overrides (``Store.config_values``)."""
    if fmt not in ("csv", "json"):
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    param_keys = sorted({k for run in runs for k in run.params})
    grid_keys = sorted({k for run in runs for k in run.overrides})
    if fmt == "json":
        rows = []
        for run in runs:
            row = _base_row(run)
            row["params"] = {k: run.params[k] for k in param_keys if k in run.params}
            row["configuration"] = {k: _grid_value(run, config, k) for k in grid_keys}
            rows.append(row)
        json.dump(rows, out, indent=1, ensure_ascii=False)
        out.write("\n")
        return len(rows)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*BASE_COLUMNS, *(PARAM_PREFIX + k for k in param_keys),
                     *(CONF_PREFIX + k for k in grid_keys)])
    for run in runs:
        row = _base_row(run)
        writer.writerow([*(_csv_cell(row[c]) for c in BASE_COLUMNS),
                         *(_csv_cell(run.params.get(k)) for k in param_keys),
                         *(_csv_cell(_grid_value(run, config, k)) for k in grid_keys)])
    return len(runs)


def _base_row(run: RunInfo) -> dict[str, Any]:
    row = {c: getattr(run, c) for c in BASE_COLUMNS if c not in ("started", "finished")}
    row["started"] = _iso(run.started_at)
    row["finished"] = _iso(run.finished_at)
    return {c: row[c] for c in BASE_COLUMNS}


def _grid_value(run: RunInfo, config: dict[int, dict[str, str | None]], key: str):
    values = config.get(run.id, {})
    if key in values:
        return values[key]
    return run.overrides.get(key)


def _iso(when: datetime | None) -> str | None:
    if when is None:
        return None
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# HiBench


def hibench_report(store, out: TextIO, **filters) -> int:
    """Write a HiBench ``hibench.report`` for the successful runs ``store.runs(**filters)``
    selects, in the order they finished; returns the number of lines after the header.

    Layout as HiBench's ``gen_report``: ``printf "%-12s %-10s %-8s %-20s %-20s %-20s %-20s\\n"``
    of type, date (``YYYY-MM-DD``), time (``HH:MM:SS``), input bytes, duration in seconds with
    three decimals, throughput in bytes/s and throughput per node, both integers truncated as
    HiBench's ``bc`` does. Successful: status succeeded and validation not FAILED. Date and time
    are the run's finish in UTC (HiBench writes the local time of report writing). Type is
    engine and workload in HiBench's style (``vivace``/``terasort`` -> ``VivaceTerasort``).
    Nodes: the cluster description's ``nodes`` (1 when absent).
    """
    nodes = {c.name: c.nodes for c in store.clusters()}
    runs = [r for r in store.runs(**filters) if _successful(r)]
    runs.sort(key=lambda r: (r.finished_at, r.id))
    out.write(hibench_header() + "\n")
    for run in runs:
        out.write(hibench_line(run, nodes.get(run.cluster, 1)) + "\n")
    return len(runs)


def hibench_header() -> str:
    return HIBENCH_FORMAT % HIBENCH_COLUMNS


def hibench_line(run: RunInfo, nodes: int = 1) -> str:
    duration_ms = _duration_ms(run)
    size = run.input_bytes or 0
    throughput = size * 1000 // duration_ms if duration_ms > 0 else 0
    per_node = throughput // max(1, nodes)
    finished = run.finished_at
    return HIBENCH_FORMAT % (
        hibench_type(run.workload, run.engine), finished.strftime("%Y-%m-%d"),
        finished.strftime("%H:%M:%S"), size, f"{duration_ms // 1000}.{duration_ms % 1000:03d}",
        throughput, per_node)


def hibench_type(workload: str, engine: str) -> str:
    return _camel(engine) + _camel(workload)


def _camel(name: str) -> str:
    parts = name.replace("_", "-").replace(".", "-").split("-")
    return "".join(p[:1].upper() + p[1:] for p in parts if p)


def _duration_ms(run: RunInfo) -> int:
    if run.duration_s is not None:
        return max(0, round(run.duration_s * 1000))
    return max(0, run.finished_ms - run.started_ms)


def _successful(run: RunInfo) -> bool:
    return run.status == SUCCEEDED and (run.validation_status or "").upper() != "FAILED"
