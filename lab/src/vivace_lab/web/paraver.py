"""A run as a Paraver trace: ``.prv`` (header and records) and ``.pcf`` (names of the event
types and states), for BSC's Paraver viewer.

Layout: one node, one application, one task. Thread 1 carries the system metrics, one event
record per sample with all its readings; threads 2.. are the task slots (lanes of the run's
timeline), with a state record per task attempt. Paraver values are integers: percentages are
written in hundredths of a percent, rates in bytes per second. Times are nanoseconds from the
earlier of the run's start and its first sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime

from vivace_lab.metrics.sample import MetricSample
from vivace_lab.store.info import RunDetail
from vivace_lab.web.timeline import task_lanes, time_origin_ms

#: event type -> (label, how a sample gives the value)
EVENT_TYPES: dict[int, tuple[str, object]] = {
    61000001: ("CPU user (0.01 % of the machine)", lambda s: _hundredths(s.cpu_user)),
    61000002: ("CPU system (0.01 % of the machine)", lambda s: _hundredths(s.cpu_system)),
    61000003: ("CPU iowait (0.01 % of the machine)", lambda s: _hundredths(s.cpu_iowait)),
    61000004: ("CPU steal (0.01 % of the machine)", lambda s: _hundredths(s.cpu_steal)),
    61000010: ("memory used (bytes)", lambda s: s.mem_used_bytes),
    61000011: ("memory available (bytes)", lambda s: s.mem_available_bytes),
    61000020: ("disk read (bytes/s)", lambda s: _rate(s.disk_read_bytes, s)),
    61000021: ("disk write (bytes/s)", lambda s: _rate(s.disk_write_bytes, s)),
    61000030: ("network received (bytes/s)", lambda s: _rate(s.net_rx_bytes, s)),
    61000031: ("network sent (bytes/s)", lambda s: _rate(s.net_tx_bytes, s)),
    61000040: ("engine process tree CPU (0.01 % of one core)",
               lambda s: _hundredths(s.proc_cpu_percent)),
    61000041: ("engine process tree RSS (bytes)", lambda s: s.proc_rss_bytes),
}
#: state value -> label
STATES = {0: "Idle", 1: "Map attempt", 2: "Reduce attempt", 3: "Failed or killed attempt"}
_MS_NS = 1_000_000


def _hundredths(value: float | None) -> int | None:
    return None if value is None or not math.isfinite(value) else round(value * 100)


def _rate(value: int | None, sample: MetricSample) -> int | None:
    if value is None or not sample.interval_s or not math.isfinite(sample.interval_s):
        return None
    return round(value / sample.interval_s)


def prv(run: RunDetail, samples: Sequence[MetricSample]) -> str:
    """The ``.prv`` text of the run's samples and task attempts."""
    placed = task_lanes(run.jobs)
    origin = time_origin_ms(run.started_ms, run.jobs,
                            samples[0].t_ms - samples[0].interval_s * 1000 if samples else None)
    ends = [run.finished_ms] + [s.t_ms for s in samples[-1:]] + [t.finish_ms for _, t in placed]
    duration_ns = max(0, (max(v for v in ends if v is not None) - origin) * _MS_NS)
    threads = 1 + (max((lane for lane, _ in placed), default=-1) + 1)
    records: list[tuple[int, int, str]] = []  # (time ns, order, line)
    for lane, task in placed:
        thread = lane + 2
        state = 3 if (task.status or "").upper() in ("FAILED", "KILLED") else \
            2 if (task.type or "").upper() == "REDUCE" else 1
        begin, end = (task.start_ms - origin) * _MS_NS, (task.finish_ms - origin) * _MS_NS
        records.append((begin, 0, f"1:{thread}:1:1:{thread}:{begin}:{end}:{state}"))
    for sample in samples:
        pairs = [(t, value(sample)) for t, (_, value) in EVENT_TYPES.items()]
        fields = ":".join(f"{t}:{v}" for t, v in pairs if v is not None)
        if fields:
            time_ns = (sample.t_ms - origin) * _MS_NS
            records.append((time_ns, 1, f"2:1:1:1:1:{time_ns}:{fields}"))
    records.sort(key=lambda r: (r[0], r[1]))
    when = datetime.fromtimestamp(origin / 1000, UTC).strftime("%d/%m/%y at %H:%M")
    header = f"#Paraver ({when}):{duration_ns}_ns:1({threads}):1:1({threads}:1)"
    return "\n".join([header, *(line for _, _, line in records)]) + "\n"


def pcf() -> str:
    """The ``.pcf`` naming the states and every event type ``prv`` writes."""
    lines = ["STATES"]
    lines += [f"{value}    {label}" for value, label in STATES.items()]
    for event_type, (label, _) in EVENT_TYPES.items():
        lines += ["", "EVENT_TYPE", f"0    {event_type}    {label}"]
    return "\n".join(lines) + "\n"


def row(run: RunDetail) -> str:
    """The ``.row`` naming the trace's threads (metrics, then one per slot)."""
    lanes = max((lane for lane, _ in task_lanes(run.jobs)), default=-1) + 1
    names = ["system metrics"] + [f"slot {i + 1}" for i in range(lanes)]
    return "\n".join([f"LEVEL THREAD SIZE {len(names)}", *names]) + "\n"
