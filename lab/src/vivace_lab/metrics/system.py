"""Machine-wide counters (CPU per core, memory, disks, network) and their per-interval deltas.

Which devices count:

* Disks: whole disks backed by a device, i.e. those with ``/sys/block/NAME/device`` (the rule
  iostat uses for non-virtual devices). Partitions are skipped because their I/O is also counted on
  their disk; loop, ram, zram, device-mapper (LVM, dm-crypt) and md RAID devices are skipped
  because they are virtual: their I/O either lands on a physical disk beneath them or stays in
  memory. Where ``/sys/block`` cannot be read (not Linux), every disk psutil lists counts.
* Network: every interface except loopback goes into ``net_rx_bytes``/``net_tx_bytes``; loopback
  goes into ``net_loopback_bytes`` (on loopback every byte sent is also received, so one number).
  The YARN/HDFS mini-cluster and a local Spark talk over loopback, so that traffic is kept, but
  apart from real network traffic. On hosts with container bridges or veth pairs, traffic that
  crosses several interfaces is counted once per interface.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import psutil

from vivace_lab.metrics.sample import CoreCpu

SYS_BLOCK = "/sys/block"


@dataclass(frozen=True)
class DiskCounters:
    read_bytes: int
    write_bytes: int
    read_ops: int
    write_ops: int


@dataclass(frozen=True)
class NetCounters:
    rx_bytes: int
    tx_bytes: int


@dataclass(frozen=True)
class SystemCounters:
    """Cumulative counters at one instant (memory figures are levels, not counters)."""

    cores: tuple[Any, ...]  # psutil per-CPU times
    mem_used_bytes: int
    mem_available_bytes: int
    disks: dict[str, DiskCounters]
    nics: dict[str, NetCounters]


@dataclass(frozen=True)
class SystemDelta:
    """What happened between two readings."""

    cores: tuple[CoreCpu, ...]
    disk: DiskCounters
    net: NetCounters
    loopback_bytes: int


def is_physical_disk(name: str, sys_block: str = SYS_BLOCK) -> bool:
    """True for a whole disk backed by a device (see the module docstring)."""
    if not os.path.isdir(sys_block):
        return True
    return os.path.exists(os.path.join(sys_block, name.replace("/", "!"), "device"))


def loopback_interfaces() -> frozenset[str]:
    """Names of the loopback interfaces (``lo`` on Linux, ``lo0`` on BSD and macOS)."""
    names = {name for name in psutil.net_if_addrs() if name == "lo" or name.startswith("lo0")}
    for name, stats in psutil.net_if_stats().items():
        if "loopback" in getattr(stats, "flags", ""):
            names.add(name)
    return frozenset(names)


def read_counters() -> SystemCounters:
    """One reading of every counter, disks and interfaces unfiltered."""
    memory = psutil.virtual_memory()
    disks = {
        name: DiskCounters(d.read_bytes, d.write_bytes, d.read_count, d.write_count)
        for name, d in (psutil.disk_io_counters(perdisk=True, nowrap=True) or {}).items()
    }
    nics = {
        name: NetCounters(n.bytes_recv, n.bytes_sent)
        for name, n in psutil.net_io_counters(pernic=True, nowrap=True).items()
    }
    return SystemCounters(
        cores=tuple(psutil.cpu_times(percpu=True)),
        mem_used_bytes=memory.used,
        mem_available_bytes=memory.available,
        disks=disks,
        nics=nics,
    )


def core_shares(before: Any, after: Any) -> CoreCpu:
    """One core's time between two psutil CPU-time readings, in percent.

    As sar reports them: ``user`` includes nice, ``system`` includes hard and soft interrupts; guest
    time is already inside user and nice, so it is not added again. A core whose counters did not
    move at all is reported idle.
    """
    d = {f: max(0.0, getattr(after, f, 0.0) - getattr(before, f, 0.0)) for f in after._fields}
    user = d.get("user", 0.0) + d.get("nice", 0.0)
    system = d.get("system", 0.0) + d.get("irq", 0.0) + d.get("softirq", 0.0)
    iowait = d.get("iowait", 0.0)
    steal = d.get("steal", 0.0)
    idle = d.get("idle", 0.0)
    total = user + system + iowait + steal + idle
    if total <= 0.0:
        return CoreCpu(user=0.0, system=0.0, iowait=0.0, steal=0.0, idle=100.0)
    scale = 100.0 / total
    return CoreCpu(user * scale, system * scale, iowait * scale, steal * scale, idle * scale)


def delta(
    before: SystemCounters,
    after: SystemCounters,
    disks: frozenset[str] | None = None,
    loopback: frozenset[str] = frozenset({"lo"}),
) -> SystemDelta:
    """Differences between two readings; ``disks`` limits the disks summed (None: all).

    A device that appears between the readings contributes nothing until its next interval;
    counters that go backwards (a device reset) count as zero.
    """
    cores = tuple(core_shares(b, a) for b, a in zip(before.cores, after.cores))
    disk = [0, 0, 0, 0]
    for name, a in after.disks.items():
        b = before.disks.get(name)
        if b is None or (disks is not None and name not in disks):
            continue
        disk[0] += max(0, a.read_bytes - b.read_bytes)
        disk[1] += max(0, a.write_bytes - b.write_bytes)
        disk[2] += max(0, a.read_ops - b.read_ops)
        disk[3] += max(0, a.write_ops - b.write_ops)
    rx = tx = lo = 0
    for name, a in after.nics.items():
        b = before.nics.get(name)
        if b is None:
            continue
        if name in loopback:
            lo += max(0, a.rx_bytes - b.rx_bytes)
        else:
            rx += max(0, a.rx_bytes - b.rx_bytes)
            tx += max(0, a.tx_bytes - b.tx_bytes)
    return SystemDelta(cores, DiskCounters(*disk), NetCounters(rx, tx), lo)
