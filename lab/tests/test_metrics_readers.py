"""The sampler's readers: device rules, CPU shares, deltas and the process table."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import psutil
import pytest

from vivace_lab.metrics import proctree
from vivace_lab.metrics.system import (
    DiskCounters,
    NetCounters,
    SystemCounters,
    core_shares,
    delta,
    is_physical_disk,
    loopback_interfaces,
    read_counters,
)


def test_only_whole_disks_backed_by_a_device_count(tmp_path: Path) -> None:
    for name in ("sda", "nvme0n1", "loop0", "dm-0", "zram0"):
        (tmp_path / name).mkdir()
    (tmp_path / "sda" / "device").mkdir()
    (tmp_path / "nvme0n1" / "device").mkdir()
    assert is_physical_disk("sda", str(tmp_path))
    assert is_physical_disk("nvme0n1", str(tmp_path))
    for virtual in ("loop0", "dm-0", "zram0", "sda1", "nvme0n1p1"):
        assert not is_physical_disk(virtual, str(tmp_path))
    assert is_physical_disk("anything", str(tmp_path / "missing"))  # no sysfs: count all


def test_core_shares_cover_the_interval() -> None:
    before = psutil.cpu_times(percpu=True)
    sum(i * i for i in range(200_000))
    after = psutil.cpu_times(percpu=True)
    for b, a in zip(before, after):
        share = core_shares(b, a)
        total = share.user + share.system + share.iowait + share.steal + share.idle
        assert total == pytest.approx(100.0)
    unchanged = core_shares(before[0], before[0])
    assert (unchanged.user, unchanged.idle) == (0.0, 100.0)


def test_delta_sums_chosen_disks_and_keeps_loopback_apart() -> None:
    now = read_counters()
    assert "lo" in loopback_interfaces() or sys.platform != "linux"

    def counters(disk_bytes: int, nic_bytes: int) -> SystemCounters:
        return SystemCounters(
            cores=now.cores,
            mem_used_bytes=1,
            mem_available_bytes=1,
            disks={
                "sda": DiskCounters(disk_bytes, 2 * disk_bytes, 1, 2),
                "sda1": DiskCounters(disk_bytes, 2 * disk_bytes, 1, 2),
            },
            nics={"lo": NetCounters(nic_bytes, nic_bytes), "eth0": NetCounters(nic_bytes, 0)},
        )

    d = delta(counters(100, 10), counters(400, 50), disks=frozenset({"sda"}),
              loopback=frozenset({"lo"}))
    assert d.disk == DiskCounters(300, 600, 0, 0)
    assert d.net == NetCounters(40, 0)
    assert d.loopback_bytes == 40
    backwards = delta(counters(400, 50), counters(100, 10), disks=None)
    assert backwards.disk == DiskCounters(0, 0, 0, 0)
    assert len(d.cores) == len(now.cores)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="compares /proc with psutil")
def test_proc_table_agrees_with_psutil() -> None:
    fast = proctree.read_proc_table()
    portable = proctree._read_psutil()
    after = proctree.read_proc_table()
    me = os.getpid()
    assert fast[me].ppid == portable[me].ppid == os.getppid()
    # this process spends CPU between the reads (reading every process costs some): psutil's figure
    # lies between the two /proc reads, give or take a clock tick
    assert fast[me].own_cpu_s - 0.02 <= portable[me].own_cpu_s <= after[me].own_cpu_s + 0.02
    assert fast[me].rss_bytes == pytest.approx(portable[me].rss_bytes, rel=0.1)
    assert set(fast) & set(portable) >= {me, os.getppid()}


def test_descendants_follow_parent_links() -> None:
    def stat(pid: int, ppid: int) -> proctree.ProcStat:
        return proctree.ProcStat(pid, ppid, 0.0, 0.0, 0.0, 0)

    table = {p.pid: p for p in [stat(1, 0), stat(10, 1), stat(11, 10), stat(12, 11), stat(20, 1)]}
    assert proctree.descendants(table, {10}) == {10, 11, 12}
    assert proctree.descendants(table, {11, 20, 99}) == {11, 12, 20}
