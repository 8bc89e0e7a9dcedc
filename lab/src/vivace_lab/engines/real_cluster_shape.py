"""A study's real Hadoop cluster (`vivace cluster`, docs/real-cluster.md): the spec's ``cluster``
key with ``type: real``. Light, so that a spec can be checked without starting anything."""

from __future__ import annotations

import re
from dataclasses import dataclass

# As `vivace cluster` reads a rate (realcluster's LinkRate): a number and tc's unit, or none.
_RATE = re.compile(r"(\d+(?:\.\d+)?)(bit|kbit|mbit|gbit|tbit)", re.IGNORECASE)
_UNIT_BITS = {"bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9, "tbit": 1e12}
UNSHAPED = "none"

# What the real cluster's mapred-site.xml gives MapReduce's application master and tasks.
TASK_CONTAINER_MB = 512


def link_bits_per_s(rate: str) -> float | None:
    """A link rate in bits per second ('1gbit' -> 1e9); None for 'none' (unshaped). ValueError
    names what is wrong with anything else."""
    if rate.lower() == UNSHAPED:
        return None
    m = _RATE.fullmatch(rate)
    if m is None:
        raise ValueError(f"'{rate}' is not a link rate (a number and bit, kbit, mbit, gbit or tbit, "
                         f"as 1gbit or 100mbit; or none)")
    bits = float(m.group(1)) * _UNIT_BITS[m.group(2).lower()]
    if bits <= 0:
        raise ValueError(f"'{rate}' is not a link rate: it must be more than 0")
    return bits


@dataclass(frozen=True)
class RealClusterShape:
    """Worker hosts (a DataNode and a NodeManager each, beside the master host) and their YARN
    sizes; ``links``: the rates the study's runs take in turn, every host's link shaped to one of
    them at a time (the first when the cluster comes up)."""

    hosts: int = 2
    links: tuple[str, ...] = (UNSHAPED,)
    cores: int = 4
    memory_mb: int = 3072

    # spec key -> (type, smallest value); ``link`` is a rate or a list of them
    KEYS = {"hosts": (int, 1), "cores": (int, 1), "memory_mb": (int, 1024)}
    real = True

    # What the engines on a cluster read of its shape (the session's size: engines/session.py).
    @property
    def nodemanagers(self) -> int:
        return self.hosts

    @property
    def nm_memory_mb(self) -> int:
        return self.memory_mb

    @property
    def container_mb(self) -> int:
        return TASK_CONTAINER_MB

    @property
    def session_executors(self) -> int:
        return 1

    def problem(self) -> str | None:
        for rate in self.links:
            try:
                link_bits_per_s(rate)
            except ValueError as e:
                return f"link: {e}"
        if len(set(self.links)) != len(self.links):
            return f"link lists a rate twice: {', '.join(self.links)}"
        return None

    def up_options(self) -> tuple[str, ...]:
        """`vivace cluster up` options for this shape (its first link)."""
        return ("--hosts", str(self.hosts), "--link", self.links[0], "--cores", str(self.cores),
                "--memory", str(self.memory_mb))

    def as_dict(self) -> dict:
        return {"hosts": self.hosts, "links": list(self.links), "cores": self.cores, "memory_mb": self.memory_mb}

    def name(self, machine: str, link: str | None = None) -> str:
        """The hardware description runs on this cluster with ``link`` (the first one by default)
        are stored under: another link is another cluster."""
        return f"{machine}-real-{self.hosts}x{self.memory_mb}m{self.cores}c-{link or self.links[0]}"

    def describe(self, machine_description: dict, link: str | None = None) -> dict:
        """The machine's description with this cluster under ``real_cluster`` (one link)."""
        return {**machine_description,
                "real_cluster": {"hosts": self.hosts, "link": link or self.links[0], "cores": self.cores,
                                 "memory_mb": self.memory_mb}}

    def summary(self) -> str:
        return (f"real cluster of {self.hosts} worker host{'s' if self.hosts != 1 else ''} "
                f"({self.cores} vcores, {self.memory_mb} MB each), links {', '.join(self.links)}")


REAL_CLUSTER_KEYS = ("type", "hosts", "link", "cores", "memory_mb")


_NAME = re.compile(r"-real-\d+x\d+m\d+c-([^-]+)$")


def link_of_cluster(name: str | None) -> str | None:
    """The link rate a cluster name of ``RealClusterShape.name`` ends with; None for another name."""
    m = _NAME.search(name or "")
    return m.group(1) if m else None
