"""The timing mode's table (`vivace lab bench`, `bench/run`): for each workload, the median, min and
max of each of two engines measured in the same run, their peak RSS, and the ratio between them;
rows of their own for the figures a workload reports (latency, tasks/s, CPU s per GB...).

The ratio says how much faster the first engine ("current", this checkout's) is than the second
("other", the peer or the baseline): other/current for times, current/other for rates; above 1x
the current engine is faster.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TimedRun:
    """One stored run as the table reads it."""

    label: str  # the table's workload column: the workload, with its codec ("terasort+lz4")
    size: str  # the table's size column
    engine: str
    ok: bool
    duration_s: float | None
    peak_rss_mb: float | None
    record: dict[str, Any] | None = None


@dataclass(frozen=True)
class Metric:
    """A figure of a workload's run record, shown as a row of its own."""

    label: str
    path: tuple[str, ...]  # keys into the run record
    unit: str
    higher_is_better: bool  # rates: the ratio is current/other; times: other/current
    size: str = ""  # the size column; the runs' own when empty

    def value(self, run: TimedRun) -> float | None:
        value: Any = run.record or {}
        for key in self.path:
            if not isinstance(value, dict) or key not in value:
                return None
            value = value[key]
        return float(value) if isinstance(value, (int, float)) else None


# Workloads shown by their figures instead of their run time.
METRICS: dict[str, tuple[Metric, ...]] = {
    "latency": (Metric("empty-job latency", ("results", "latency", "empty_job", "median_ms"), "ms", False),
                Metric("tasks/s (-mt 0)", ("results", "latency", "sleep_job", "tasks_per_s"), "tasks/s", True)),
    "plasma-sort": (Metric("plasma-sort wall", ("results", "cpu", "wall_s"), "s", False),
                    Metric("plasma-sort CPU", ("results", "cpu", "cpu_s_per_gb"), "CPU s/GB", False)),
    "finra-concurrency": (Metric("finra isolated", ("results", "finra", "isolated_s"), "s", False),
                          Metric("finra concurrent", ("results", "finra", "concurrent_mean_s"), "s", False),
                          Metric("finra conc/isol", ("results", "finra", "ratio"), "ratio", False)),
}


def _spread(values: list[float]) -> dict:
    return {"median": statistics.median(values) if values else None,
            "min": min(values, default=None), "max": max(values, default=None)}


def _ratio(current: float | None, other: float | None, higher_is_better: bool) -> float | None:
    if not current or not other:
        return None
    return current / other if higher_is_better else other / current


def ratio_rows(runs: Sequence[TimedRun], engines: Sequence[str]) -> list[dict]:
    """The table's rows, workloads in the order of their first run: ``engines`` (two) are the
    columns; each cell has median, min, max, peak_rss_mb and failed (runs that did not succeed)."""
    current, other = engines
    rows = []
    for label in dict.fromkeys(r.label for r in runs):
        mine = [r for r in runs if r.label == label]
        workload = label.split("+")[0]
        metrics = [m for m in METRICS.get(workload, ()) if any(m.value(r) is not None for r in mine)]
        measures = ([(m.label, m.size or mine[0].size, m.unit, m.higher_is_better, m.value) for m in metrics]
                    or [(label, mine[0].size, "s", False, lambda r: r.duration_s)])
        for name, size, unit, higher_is_better, value in measures:
            row = {"workload": name, "size": size, "unit": unit}
            for engine in engines:
                ok = [r for r in mine if r.engine == engine and r.ok and value(r) is not None]
                row[engine] = {**_spread([value(r) for r in ok]),
                               "peak_rss_mb": max((r.peak_rss_mb for r in ok if r.peak_rss_mb), default=None),
                               "failed": sum(1 for r in mine if r.engine == engine and not r.ok)}
            row["ratio"] = f"{current}/{other}" if higher_is_better else f"{other}/{current}"
            row["speedup"] = _ratio(row[current]["median"], row[other]["median"], higher_is_better)
            rows.append(row)
    return rows


def format_table(rows: Sequence[dict], engines: Sequence[str], faster: str = "Vivace") -> str:
    """The rows as text, and what the ratio means; ``faster`` names what a ratio above 1x favours."""
    current, other = engines
    headings = [f"{e} (min..max)" for e in engines]
    width = max(24, *(len(h) for h in headings))
    header = (f"{'workload':17} {'size':18} " + " ".join(f"{h:{width}} {'RSS MB':>7}" for h in headings)
              + f" {'speedup':>8}")
    lines = [header, "-" * len(header)]
    for row in rows:
        digits = 0 if row["unit"] == "tasks/s" else 2
        cells = []
        for engine in engines:
            cell = row[engine]
            if cell["median"] is None:
                cells.append(f"{'failed':{width}} {'':>7}")
                continue
            spread = f"{cell['median']:.{digits}f} ({cell['min']:.{digits}f}..{cell['max']:.{digits}f})"
            rss = f"{cell['peak_rss_mb']:7.0f}" if cell["peak_rss_mb"] else f"{'-':>7}"
            cells.append(f"{spread:{width}} {rss}")
        ratio = f"{row['speedup']:.2f}x" if row["speedup"] else "-"
        lines.append(f"{row['workload']:17} {row['size']:18} {cells[0]} {cells[1]} {ratio:>8}")
    lines.append("Times in seconds of the timed phase (JVM start excluded; cold-start and latency: the whole"
                 " program) unless the size column names another unit; tasks/s is a rate; RSS: peak of the"
                 " client process.")
    lines.append(f"speedup: {other}/{current} for times, {current}/{other} for rates; above 1x, {faster} is faster.")
    return "\n".join(lines)


# Shuffle counters of the run phase (their internal names, as the driver records them).
SHUFFLE_COUNTERS = {"MAP_OUTPUT_BYTES": "map output", "MAP_OUTPUT_MATERIALIZED_BYTES": "materialized",
                    "REDUCE_SHUFFLE_BYTES": "shuffled", "FILE_BYTES_WRITTEN": "FILE written"}


def shuffle_counters(record: dict | None) -> dict[str, int]:
    """The run phase's shuffle counters of a run record, summed over its jobs."""
    found: dict[str, int] = {}
    for job in (record or {}).get("jobs") or []:
        if job.get("phase") != "run":
            continue
        for values in (job.get("counters") or {}).values():
            for name, value in (values or {}).items():
                if name in SHUFFLE_COUNTERS:
                    found[name] = found.get(name, 0) + int(value)
    return found


SHUFFLING = ("terasort", "wordcount", "sort")


def format_shuffle_bytes(runs: Sequence[TimedRun], engines: Sequence[str]) -> str:
    """Map output bytes before and after compression, per shuffling workload and engine (the first
    successful run's counters), when some ran with a codec; else ""."""
    labels = [label for label in dict.fromkeys(r.label for r in runs) if label.split("+")[0] in SHUFFLING]
    if not any("+" in label for label in labels):
        return ""
    lines = [f"{'workload':17} {'engine':13} {'map output MB':>14} {'materialized MB':>16} {'ratio':>6} "
             f"{'FILE written MB':>16}"]
    for label in labels:
        for engine in engines:
            counted = [c for c in (shuffle_counters(r.record) for r in runs
                                   if r.label == label and r.engine == engine and r.ok)
                       if "MAP_OUTPUT_MATERIALIZED_BYTES" in c]
            if not counted:
                continue
            c = counted[0]
            raw, stored = c.get("MAP_OUTPUT_BYTES", 0), c["MAP_OUTPUT_MATERIALIZED_BYTES"]
            ratio = f"{stored / raw:.2f}" if raw else "-"
            lines.append(f"{label:17} {engine:13} {raw / 1e6:14.1f} {stored / 1e6:16.1f} {ratio:>6} "
                         f"{c.get('FILE_BYTES_WRITTEN', 0) / 1e6:16.1f}")
    lines.append("materialized: map output as stored for the shuffle (compressed bytes with a codec);"
                 " FILE written: local file system bytes (spills, merges, job output).")
    return "\n".join(lines)
