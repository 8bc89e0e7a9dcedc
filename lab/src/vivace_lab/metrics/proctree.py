"""The process tree of one run: which processes belong to it and the CPU time they used.

The tree is the root and all its descendants, found again at every reading. Processes once seen
stay members while they live, so a daemon that detaches from the tree (re-parented to init) is
still followed.

CPU accounting, per interval, from cumulative CPU times (never a first-call 0.0):

* a process seen at both readings adds the growth of its own time, plus the growth of the time of
  its reaped children minus what had already been counted of the children that vanished since the
  last reading; so a child's last moments, between its last reading and its exit, are counted once;
* a process first seen after the first reading was born during the interval and adds all its time;
* the first reading is the baseline: nothing that happened before it counts.

Lost: the last moments of a process that was reaped by a process outside the tree (the root,
reaped by the caller, is one: call ``Sampler.stop()`` before waiting on the root if its last
interval matters).
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import psutil

PROC = "/proc"


@dataclass(frozen=True)
class ProcStat:
    """Cumulative figures of one process at one instant."""

    pid: int
    ppid: int
    start: float  # start time in the system's own unit; with pid it identifies a process
    own_cpu_s: float  # user + system
    children_cpu_s: float  # user + system of reaped children
    rss_bytes: int


@dataclass(frozen=True)
class TreeUsage:
    """The tree over one interval."""

    cpu_s: float
    rss_bytes: int
    count: int


def read_proc_table() -> dict[int, ProcStat]:
    """Every process: from ``/proc/PID/stat`` on Linux (one read each), from psutil elsewhere."""
    if sys.platform.startswith("linux") and os.path.isdir(PROC):
        return _read_linux_proc(PROC)
    return _read_psutil()


def _read_linux_proc(proc: str) -> dict[int, ProcStat]:
    tick = float(os.sysconf("SC_CLK_TCK"))
    page = os.sysconf("SC_PAGE_SIZE")
    table: dict[int, ProcStat] = {}
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        try:
            with open(f"{proc}/{name}/stat", "rb") as f:
                data = f.read()
        except OSError:  # gone since the listing, or not ours to read
            continue
        # The command name is in parentheses and may hold anything; fields follow the last ')'.
        fields = data[data.rfind(b")") + 2 :].split()
        if len(fields) < 22:
            continue
        pid = int(name)
        table[pid] = ProcStat(
            pid=pid,
            ppid=int(fields[1]),
            start=float(fields[19]),
            own_cpu_s=(int(fields[11]) + int(fields[12])) / tick,
            children_cpu_s=(int(fields[13]) + int(fields[14])) / tick,
            rss_bytes=int(fields[21]) * page,
        )
    return table


def _read_psutil() -> dict[int, ProcStat]:
    table: dict[int, ProcStat] = {}
    attrs = ["ppid", "create_time", "cpu_times", "memory_info"]
    for p in psutil.process_iter(attrs, ad_value=None):
        info = p.info
        if info["cpu_times"] is None or info["ppid"] is None:
            continue
        t = info["cpu_times"]
        table[p.pid] = ProcStat(
            pid=p.pid,
            ppid=info["ppid"],
            start=info["create_time"] or 0.0,
            own_cpu_s=t.user + t.system,
            children_cpu_s=getattr(t, "children_user", 0.0) + getattr(t, "children_system", 0.0),
            rss_bytes=info["memory_info"].rss if info["memory_info"] else 0,
        )
    return table


def descendants(table: dict[int, ProcStat], seeds: set[int]) -> set[int]:
    """The seeds present in ``table`` and all their descendants."""
    children: dict[int, list[int]] = defaultdict(list)
    for stat in table.values():
        children[stat.ppid].append(stat.pid)
    found: set[int] = set()
    stack = [pid for pid in seeds if pid in table]
    while stack:
        pid = stack.pop()
        if pid in found:
            continue
        found.add(pid)
        stack.extend(children.get(pid, ()))
    return found


class ProcessTree:
    """Follows the trees rooted at ``root_pids``; ``read()`` returns their usage since the last call."""

    def __init__(self, root_pids: int | Iterable[int]) -> None:
        self.root_pids = {root_pids} if isinstance(root_pids, int) else set(root_pids)
        self._members: dict[int, ProcStat] = {}
        self._started = False

    def read(self, table: dict[int, ProcStat] | None = None) -> TreeUsage:
        """Usage since the previous call (CPU 0 on the first call, which sets the baseline)."""
        table = read_proc_table() if table is None else table
        seeds = self.root_pids | {
            pid for pid, old in self._members.items() if _same(table.get(pid), old)
        }
        current = {pid: table[pid] for pid in descendants(table, seeds)}
        cpu_s = self._cpu_since_last(current) if self._started else 0.0
        self._members = current
        self._started = True
        return TreeUsage(
            cpu_s=cpu_s,
            rss_bytes=sum(s.rss_bytes for s in current.values()),
            count=len(current),
        )

    def _cpu_since_last(self, current: dict[int, ProcStat]) -> float:
        already_counted: dict[int, float] = defaultdict(float)  # by the parent that reaped them
        for pid, old in self._members.items():
            if not _same(current.get(pid), old):
                already_counted[old.ppid] += old.own_cpu_s + old.children_cpu_s
        total = 0.0
        for pid, now in current.items():
            old = self._members.get(pid)
            if _same(now, old):
                total += max(0.0, now.own_cpu_s - old.own_cpu_s)
                reaped = now.children_cpu_s - old.children_cpu_s - already_counted.get(pid, 0.0)
                total += max(0.0, reaped)
            else:  # born during the interval
                total += now.own_cpu_s + now.children_cpu_s
        return total


def _same(a: ProcStat | None, b: ProcStat | None) -> bool:
    return a is not None and b is not None and a.pid == b.pid and a.start == b.start
