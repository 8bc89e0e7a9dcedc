"""Metric samples to rows and back."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from sqlalchemy import Connection, select

from vivace_lab.metrics.hosts import HostSample
from vivace_lab.metrics.sample import CoreCpu, MetricSample
from vivace_lab.store.bulk import bulk_insert
from vivace_lab.store.schema import HostSampleRow, MetricSampleRow

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

_INF = float("inf")


def insert_samples(conn: Connection, run_id: int, samples: Sequence[MetricSample]) -> None:
    bulk_insert(conn, _TABLE, _INSERT_COLUMNS, (_row(run_id, s) for s in samples))


def read_samples(conn: Connection, run_id: int) -> list[MetricSample]:
    columns = [_TABLE.c[name] for name in SCALAR_FIELDS] + [_TABLE.c.cores]
    query = select(*columns).where(_TABLE.c.run_id == run_id).order_by(_TABLE.c.t_ms,
                                                                         _TABLE.c.id)
    return [_sample(row) for row in conn.execute(query)]


_INSERT_COLUMNS = ("run_id", *SCALAR_FIELDS, "cores")


def _row(run_id: int, s: MetricSample) -> tuple:
    """The sample as a tuple in ``_INSERT_COLUMNS`` order."""
    cores = [[c.user, c.system, c.iowait, c.steal, c.idle] for c in s.cores]
    try:
        cores_json = json.dumps(cores, allow_nan=False, separators=(",", ":"))
    except ValueError:  # NaN or infinity among the shares
        cores_json = json.dumps([[_finite(v) for v in core] for core in cores],
                                separators=(",", ":"))
    return (run_id, s.t_ms, _finite(s.interval_s), _finite(s.cpu_user), _finite(s.cpu_system),
            _finite(s.cpu_iowait), _finite(s.cpu_steal), s.mem_used_bytes, s.mem_available_bytes,
            s.disk_read_bytes, s.disk_write_bytes, s.disk_read_ops, s.disk_write_ops,
            s.net_rx_bytes, s.net_tx_bytes, _finite(s.proc_cpu_percent), s.proc_rss_bytes,
            s.proc_count, cores_json)


def _sample(row) -> MetricSample:
    values = dict(zip(SCALAR_FIELDS, row[: len(SCALAR_FIELDS)], strict=True))
    cores = row[len(SCALAR_FIELDS)] or []
    return MetricSample(
        **{k: (v if v is not None else _missing(k)) for k, v in values.items()},
        cores=tuple(CoreCpu(*(math.nan if v is None else v for v in core)) for core in cores),
    )


def _finite(value):
    """NaN and infinities become NULL, on both databases (SQLite would turn NaN into NULL anyway,
    PostgreSQL would keep it: the same sample must read back the same from either)."""
    if value != value or value == _INF or value == -_INF:
        return None
    return value


def _missing(field: str):
    """What a NULL reads back as: NaN for shares and rates that are floats, 0 for counts."""
    return math.nan if field in _FLOAT_FIELDS else 0


_FLOAT_FIELDS = frozenset(
    ("interval_s", "cpu_user", "cpu_system", "cpu_iowait", "cpu_steal", "proc_cpu_percent"))


_HOST_TABLE = HostSampleRow.__table__
HOST_FIELDS = ("host", "t_ms", "interval_s", "net_rx_bytes", "net_tx_bytes", "disk_read_bytes", "disk_write_bytes")


def insert_host_samples(conn: Connection, run_id: int, samples: Sequence[HostSample]) -> None:
    bulk_insert(conn, _HOST_TABLE, ("run_id", *HOST_FIELDS),
                ((run_id, *(getattr(s, name) for name in HOST_FIELDS)) for s in samples))


def read_host_samples(conn: Connection, run_id: int) -> list[HostSample]:
    query = select(*(_HOST_TABLE.c[name] for name in HOST_FIELDS)).where(_HOST_TABLE.c.run_id == run_id) \
        .order_by(_HOST_TABLE.c.t_ms, _HOST_TABLE.c.host)
    return [HostSample(**dict(zip(HOST_FIELDS, row, strict=True))) for row in conn.execute(query)]
