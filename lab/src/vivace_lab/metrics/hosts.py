"""Each host's network and disk traffic on a real cluster, read inside its network namespace.

A host is a namespace (`ip netns`, mounted at /run/netns/NAME). Its processes are those whose
/proc/PID/ns/net is that namespace (the same inode): what `ip netns pids NAME` lists, found
without starting a process per host and reading.

- **Network**: the namespace's own /proc/net/dev, as /proc/PID/net/dev of any of its processes
  shows it (`ip netns exec NAME cat /proc/net/dev` when it has none left), loopback left out:
  bytes the host received and sent on its link.
- **Disk**: the sum of /proc/PID/io ``read_bytes`` and ``write_bytes`` (what reached the storage
  layer) of its processes. A process's counters go with it: what one read or wrote after the last
  reading before it ended is not counted (a short container's last second, say).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

NETNS_DIR = Path("/run/netns")
LOOPBACK = "lo"


@dataclass(frozen=True)
class HostSample:
    """One host's traffic over the interval that ends at ``t_ms`` (bytes in that interval)."""

    host: str
    t_ms: int
    interval_s: float
    net_rx_bytes: int = 0
    net_tx_bytes: int = 0
    disk_read_bytes: int = 0
    disk_write_bytes: int = 0


@dataclass
class HostCounters:
    """One host's cumulative counters at one reading."""

    net_rx_bytes: int = 0
    net_tx_bytes: int = 0
    disk_io: dict[int, tuple[int, int]] = field(default_factory=dict)  # pid -> (read_bytes, write_bytes)


def parse_net_dev(text: str) -> tuple[int, int]:
    """Received and sent bytes of every interface but loopback in /proc/net/dev's text."""
    rx = tx = 0
    for line in text.splitlines()[2:]:
        name, sep, rest = line.partition(":")
        if not sep or name.strip() == LOOPBACK:
            continue
        fields = rest.split()
        rx += int(fields[0])
        tx += int(fields[8])
    return rx, tx


def parse_proc_io(text: str) -> tuple[int, int]:
    """``read_bytes`` and ``write_bytes`` of /proc/PID/io's text."""
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values[key.strip()] = int(value)
    return values.get("read_bytes", 0), values.get("write_bytes", 0)


def disk_delta(before: dict[int, tuple[int, int]], after: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """Bytes read and written between two readings of a host's processes: a process in both counts
    its growth, one that started since counts whole, one that ended counts nothing more (a pid
    reused by another process, whose counters are below the old one's, counts whole too)."""
    read = written = 0
    for pid, (r, w) in after.items():
        r0, w0 = before.get(pid, (0, 0))
        if r < r0 or w < w0:
            r0 = w0 = 0
        read += r - r0
        written += w - w0
    return read, written


def host_sample(host: str, before: HostCounters, after: HostCounters, t_ms: int, interval_s: float) -> HostSample:
    read, written = disk_delta(before.disk_io, after.disk_io)
    return HostSample(host, t_ms, interval_s,
                      net_rx_bytes=max(0, after.net_rx_bytes - before.net_rx_bytes),
                      net_tx_bytes=max(0, after.net_tx_bytes - before.net_tx_bytes),
                      disk_read_bytes=read, disk_write_bytes=written)


class HostProbe:
    """Reads the counters of the hosts (namespace names) it is given."""

    def __init__(self, hosts: list[str]) -> None:
        self.hosts = list(hosts)

    def read(self) -> dict[str, HostCounters]:
        inodes = {}
        for host in self.hosts:
            try:
                inodes[os.stat(NETNS_DIR / host).st_ino] = host
            except OSError:
                pass  # the host is gone (the cluster came down): it reads as nothing
        pids: dict[str, list[int]] = {host: [] for host in self.hosts}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                host = inodes.get(os.stat(f"/proc/{entry.name}/ns/net").st_ino)
            except OSError:
                continue
            if host is not None:
                pids[host].append(int(entry.name))
        return {host: self._read_host(host, pids[host]) for host in self.hosts}

    def _read_host(self, host: str, pids: list[int]) -> HostCounters:
        counters = HostCounters()
        net = None
        for pid in pids:
            try:
                counters.disk_io[pid] = parse_proc_io(Path(f"/proc/{pid}/io").read_text())
                if net is None:
                    net = Path(f"/proc/{pid}/net/dev").read_text()
            except (OSError, ValueError):
                continue  # it ended meanwhile
        if net is None:
            net = _net_dev_by_exec(host)
        if net:
            counters.net_rx_bytes, counters.net_tx_bytes = parse_net_dev(net)
        return counters


def _net_dev_by_exec(host: str) -> str:
    """The namespace's /proc/net/dev read by a process started in it (a host with none left)."""
    try:
        done = subprocess.run(["ip", "netns", "exec", host, "cat", "/proc/net/dev"], capture_output=True,
                              timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.decode(errors="replace") if done.returncode == 0 else ""
