"""Metric samples to rows and back."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, select

from vivace_lab.metrics.sample import CoreCpu, MetricSample
from vivace_lab.store.schema import MetricSampleRow

_TABLE = MetricSampleRow.__table__

#: MetricSample fields stored one-to-one in a column of the same name
SCALAR_FIELDS = (
    "t_ms", "interval_s", "cpu_user", "cpu_system", "cpu_iowait", "cpu_steal",
    "mem_used_bytes", "mem_available_bytes", "disk_read_bytes", "disk_write_bytes",
    "disk_read_ops", "disk_write_ops", "net_rx_bytes", "net_tx_bytes",
    "proc_cpu_percent", "proc_rss_bytes", "proc_count",
)
#: order of a core's shares in the ``cores`` JSON: one [user, system, iowait, steal, idle] per core
CORE_FIELDS = ("user", "system", "iowait", "steal", "idle")

#: rows per INSERT statement batch: bounds memory for a very long run's samples
BATCH = 10_000


def insert_samples(conn: Connection, run_id: int, samples: Sequence[MetricSample]) -> None:
    for start in range(0, len(samples), BATCH):
        rows = [_row(run_id, s) for s in samples[start:start + BATCH]]
        conn.execute(insert(_TABLE), rows)


def read_samples(conn: Connection, run_id: int) -> list[MetricSample]:
    columns = [_TABLE.c[name] for name in SCALAR_FIELDS] + [_TABLE.c.cores]
    query = select(*columns).where(_TABLE.c.run_id == run_id).order_by(_TABLE.c.t_ms,
                                                                         _TABLE.c.id)
    return [_sample(row) for row in conn.execute(query)]


def _row(run_id: int, sample: MetricSample) -> dict[str, Any]:
    row: dict[str, Any] = {"run_id": run_id}
    for name in SCALAR_FIELDS:
        row[name] = _finite(getattr(sample, name))
    row["cores"] = [[_finite(getattr(core, f)) for f in CORE_FIELDS] for core in sample.cores]
    return row


def _sample(row) -> MetricSample:
    values = dict(zip(SCALAR_FIELDS, row[: len(SCALAR_FIELDS)]))
    cores = row[len(SCALAR_FIELDS)] or []
    return MetricSample(
        **{k: (v if v is not None else _missing(k)) for k, v in values.items()},
        cores=tuple(CoreCpu(*(math.nan if v is None else v for v in core)) for core in cores),
    )


def _finite(value):
    """NaN and infinities become NULL, on both databases (SQLite would turn NaN into NULL anyway,
    PostgreSQL would keep it: the same sample must read back the same from either)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _missing(field: str):
    """What a NULL reads back as: NaN for shares and rates that are floats, 0 for counts."""
    return math.nan if field in _FLOAT_FIELDS else 0


_FLOAT_FIELDS = frozenset(
    ("interval_s", "cpu_user", "cpu_system", "cpu_iowait", "cpu_steal", "proc_cpu_percent"))
