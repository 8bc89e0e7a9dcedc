"""One reading of the system metrics sampler."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CoreCpu:
    """Share of one core's time since the previous sample, in percent."""

    user: float
    system: float
    iowait: float
    steal: float
    idle: float


@dataclass(frozen=True)
class MetricSample:
    """System and process-tree metrics over the interval that ends at ``t_ms``.

    Rates are per interval, not cumulative: ``disk_read_bytes`` is what was read since the previous
    sample. CPU shares are percentages of the interval; the machine-wide figures average the cores.
    Network rx/tx leave loopback out; loopback traffic has its own field.
    """

    t_ms: int  # epoch milliseconds at the end of the interval
    interval_s: float
    cpu_user: float
    cpu_system: float
    cpu_iowait: float
    cpu_steal: float
    cores: tuple[CoreCpu, ...] = field(default_factory=tuple)
    mem_used_bytes: int = 0
    mem_available_bytes: int = 0
    disk_read_bytes: int = 0
    disk_write_bytes: int = 0
    disk_read_ops: int = 0
    disk_write_ops: int = 0
    net_rx_bytes: int = 0
    net_tx_bytes: int = 0
    net_loopback_bytes: int = 0  # through loopback (not in rx/tx): the mini-cluster's own traffic
    proc_cpu_percent: float = 0.0  # the engine's process tree, percent of one core
    proc_rss_bytes: int = 0  # the engine's process tree, summed resident set size
    proc_count: int = 0
