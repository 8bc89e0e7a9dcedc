"""The bytes a job moved between a real cluster's hosts, and the network floor: the least time the
links' bandwidth alone would need for them (AMAX's comparison of 1 Gbit and 10 Gbit links).

Every host's link is shaped to the same rate in each direction, and a transfer crosses the
sender's outgoing and the receiver's incoming limit, so no host can send or receive faster than the
rate. The floor is therefore the busiest host's traffic (the larger of what it sent and what it
received) over the rate: however well the job spread its transfers, that host needed that long.
``moved_bytes`` is everything the hosts sent (to each other, and to the client outside them), so
``moved_bytes / rate`` is the time one link would need for the job, the floor when a single host
did all the moving.

A job's share of the samples is those whose interval overlaps the job (submitted to finished):
at the sampler's resolution (a second by default), so the bytes of up to one interval before and
after it count with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vivace_lab.engines.real_cluster_shape import link_bits_per_s
from vivace_lab.metrics.hosts import HostSample


@dataclass(frozen=True)
class HostTraffic:
    host: str
    net_rx_bytes: int
    net_tx_bytes: int
    disk_read_bytes: int
    disk_write_bytes: int


@dataclass(frozen=True)
class JobNetwork:
    """One job's traffic and its network floor on links of ``link`` (None when unshaped)."""

    job_id: str | None
    name: str | None
    time_s: float | None  # submitted to finished
    moved_bytes: int  # sent by all hosts
    busiest_host: str | None
    busiest_bytes: int  # the larger of what that host sent and received
    link: str | None
    floor_s: float | None  # busiest_bytes over the link's rate; None on unshaped links

    @property
    def one_link_s(self) -> float | None:
        """moved_bytes over one link's rate."""
        bits = link_bits_per_s(self.link) if self.link else None
        return self.moved_bytes * 8 / bits if bits else None


def per_host(samples: Iterable[HostSample], start_ms: int | None = None,
             end_ms: int | None = None) -> list[HostTraffic]:
    """Each host's totals over the samples that overlap [start_ms, end_ms] (all when not given),
    hosts in the order they first appear."""
    totals: dict[str, list[int]] = {}
    for s in samples:
        begin = s.t_ms - s.interval_s * 1000
        if start_ms is not None and s.t_ms <= start_ms:
            continue
        if end_ms is not None and begin >= end_ms:
            continue
        t = totals.setdefault(s.host, [0, 0, 0, 0])
        t[0] += s.net_rx_bytes
        t[1] += s.net_tx_bytes
        t[2] += s.disk_read_bytes
        t[3] += s.disk_write_bytes
    return [HostTraffic(host, *values) for host, values in totals.items()]


def network_floor_s(busiest_bytes: int, link: str | None) -> float | None:
    """Seconds a link of rate ``link`` needs for ``busiest_bytes``; None for an unshaped link."""
    bits = link_bits_per_s(link) if link else None
    return busiest_bytes * 8 / bits if bits else None


def job_network(job: dict, samples: list[HostSample], link: str | None) -> JobNetwork:
    """The network figures of one job of a run record (its ``submit_ms`` or ``start_ms`` to its
    ``finish_ms``)."""
    start = job.get("submit_ms") or job.get("start_ms")
    end = job.get("finish_ms")
    hosts = per_host(samples, start, end)
    busiest = max(hosts, key=lambda h: max(h.net_rx_bytes, h.net_tx_bytes), default=None)
    busiest_bytes = max(busiest.net_rx_bytes, busiest.net_tx_bytes) if busiest else 0
    return JobNetwork(job_id=job.get("job_id"), name=job.get("name"),
                      time_s=(end - start) / 1000 if start and end else None,
                      moved_bytes=sum(h.net_tx_bytes for h in hosts),
                      busiest_host=busiest.host if busiest else None, busiest_bytes=busiest_bytes,
                      link=link, floor_s=network_floor_s(busiest_bytes, link))


def run_network(record: dict | None, samples: list[HostSample]) -> list[JobNetwork]:
    """The network figures of each job of a run's timed phase, on the link its record names
    (``record["cluster"]["link"]``); none for a run without host samples."""
    if not samples or not record:
        return []
    link = (record.get("cluster") or {}).get("link")
    return [job_network(job, samples, link) for job in record.get("jobs") or [] if job.get("phase") == "run"]
