"""A background thread that samples the machine and a process tree at a fixed interval.

```python
with Sampler(proc.pid, interval_s=1.0) as sampler:
    ...  # the run
samples = sampler.samples
```

Readings are scheduled on the monotonic clock at start + k * interval (a tick that overruns skips
the ticks it missed rather than bunching them); each sample's ``t_ms`` is the wall clock (epoch ms)
at the reading that ends its interval, so samples line up with the driver's job and task times.
``stop()`` takes a last sample over the partial interval since the previous one, however short, so
a run shorter than the interval still gets one sample and no byte is left out of the totals (the
CPU shares of a very short last interval are coarse: CPU times move in 10 ms clock ticks).

Disk and network rules: see ``vivace_lab.metrics.system``; process-tree CPU accounting: see
``vivace_lab.metrics.proctree``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import psutil

from vivace_lab.metrics.hosts import HostProbe, HostSample, host_sample
from vivace_lab.metrics.proctree import ProcessTree, TreeUsage
from vivace_lab.metrics.sample import MetricSample
from vivace_lab.metrics.system import (
    SystemCounters,
    delta,
    is_physical_disk,
    loopback_interfaces,
    read_counters,
)


@dataclass(frozen=True)
class SamplerCost:
    """What the sampler itself spent on its readings (the baseline reading included)."""

    readings: int
    cpu_s: float  # CPU time of the reading thread(s)
    wall_s: float

    @property
    def cpu_ms_per_reading(self) -> float:
        return 1000.0 * self.cpu_s / self.readings if self.readings else 0.0

    @property
    def wall_ms_per_reading(self) -> float:
        return 1000.0 * self.wall_s / self.readings if self.readings else 0.0


class Sampler:
    """Samples machine metrics and the process tree rooted at ``root_pid`` (None: no process; a
    sequence: the trees of all of them, e.g. a driver and the mini-cluster that runs its tasks).

    ``start()`` takes the baseline reading in the caller's thread (so a bad pid fails there) and
    starts the thread; ``stop()`` ends it and returns the samples. An exception in the thread ends
    the sampling; ``stop()`` re-raises it (the samples taken before it stay in ``samples``).

    ``hosts``: the hosts of a real cluster, each read at every sample into ``host_samples``.
    """

    def __init__(self, root_pid: int | Sequence[int] | None, interval_s: float = 1.0,
                 hosts: HostProbe | None = None) -> None:
        if interval_s <= 0:
            raise ValueError(f"interval_s must be positive, got {interval_s}")
        self.root_pid = root_pid
        self.interval_s = interval_s
        self.samples: list[MetricSample] = []
        self.host_samples: list[HostSample] = []
        self._hosts = hosts
        self._hosts_last: dict | None = None
        self._tree = ProcessTree(root_pid) if root_pid is not None else None
        self._loopback = loopback_interfaces()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._last: SystemCounters | None = None
        self._last_mono = 0.0
        self._readings = 0
        self._cpu_s = 0.0
        self._wall_s = 0.0

    # -- public -----------------------------------------------------------------------------

    def start(self) -> Sampler:
        if self._thread is not None:
            raise RuntimeError("sampler already started")
        roots = [self.root_pid] if isinstance(self.root_pid, int) else list(self.root_pid or [])
        for pid in roots:
            if not psutil.pid_exists(pid):
                raise psutil.NoSuchProcess(pid)
        self._measured(self._baseline)
        self._thread = threading.Thread(target=self._run, name="vivace-sampler", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> list[MetricSample]:
        """Ends sampling (taking the last partial sample) and returns every sample."""
        if self._thread is None:
            raise RuntimeError("sampler not started")
        self._stop.set()
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self.samples

    @property
    def error(self) -> BaseException | None:
        """The exception that ended the thread, if one did (``stop()`` raises it too)."""
        return self._error

    @property
    def cost(self) -> SamplerCost:
        return SamplerCost(self._readings, self._cpu_s, self._wall_s)

    def __enter__(self) -> Sampler:
        return self.start()

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc is None:
            self.stop()
            return
        try:  # the body's exception wins; the sampler's, if any, is noted on it
            self.stop()
        except Exception as sampler_error:  # noqa: BLE001
            exc.add_note(f"the metrics sampler also failed: {sampler_error!r}")

    # -- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            start = self._last_mono
            k = 1
            while not self._stop.wait(max(0.0, start + k * self.interval_s - time.monotonic())):
                self._measured(self._sample)
                k = max(k + 1, int((time.monotonic() - start) / self.interval_s) + 1)
            self._measured(self._sample)
        except BaseException as error:  # noqa: BLE001 -- kept for stop()
            self._error = error

    def _measured(self, reading) -> None:
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        reading()
        self._cpu_s += time.thread_time() - cpu0
        self._wall_s += time.perf_counter() - wall0
        self._readings += 1

    def _baseline(self) -> None:
        self._last_mono = time.monotonic()
        self._last = read_counters()
        if self._tree is not None:
            self._tree.read()
        if self._hosts is not None:
            self._hosts_last = self._hosts.read()

    def _sample(self) -> None:
        self.samples.append(self._take_sample())

    def _take_sample(self) -> MetricSample:
        """Reads everything and returns the sample of the interval since the previous reading."""
        mono = time.monotonic()
        t_ms = time.time_ns() // 1_000_000
        now = read_counters()
        tree = self._tree.read() if self._tree is not None else TreeUsage(0.0, 0, 0)
        interval_s = mono - self._last_mono
        assert self._last is not None
        disks = frozenset(name for name in now.disks if _physical_disk(name))
        d = delta(self._last, now, disks=disks, loopback=self._loopback)
        if self._hosts is not None:
            hosts_now = self._hosts.read()
            self.host_samples.extend(host_sample(host, self._hosts_last[host], counters, t_ms, mono - self._last_mono)
                                     for host, counters in hosts_now.items())
            self._hosts_last = hosts_now
        self._last, self._last_mono = now, mono
        cores = d.cores
        n = len(cores) or 1
        return MetricSample(
            t_ms=t_ms,
            interval_s=interval_s,
            cpu_user=sum(c.user for c in cores) / n,
            cpu_system=sum(c.system for c in cores) / n,
            cpu_iowait=sum(c.iowait for c in cores) / n,
            cpu_steal=sum(c.steal for c in cores) / n,
            cores=cores,
            mem_used_bytes=now.mem_used_bytes,
            mem_available_bytes=now.mem_available_bytes,
            disk_read_bytes=d.disk.read_bytes,
            disk_write_bytes=d.disk.write_bytes,
            disk_read_ops=d.disk.read_ops,
            disk_write_ops=d.disk.write_ops,
            net_rx_bytes=d.net.rx_bytes,
            net_tx_bytes=d.net.tx_bytes,
            net_loopback_bytes=d.loopback_bytes,
            proc_cpu_percent=100.0 * tree.cpu_s / interval_s if interval_s > 0 else 0.0,
            proc_rss_bytes=tree.rss_bytes,
            proc_count=tree.count,
        )


@lru_cache(maxsize=256)
def _physical_disk(name: str) -> bool:
    return is_physical_disk(name)
