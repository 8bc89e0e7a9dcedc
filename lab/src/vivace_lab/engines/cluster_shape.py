"""The shape of a study's YARN + HDFS mini-cluster: the spec's ``cluster`` key."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class ClusterShape:
    """NodeManagers and DataNodes (all on this host) and their sizes. The defaults are the
    one-node cluster the headline study has always had: a 3 GB, 3-vcore NodeManager holding a
    1 GB ApplicationMaster and two 1 GB tasks; ApplicationMasters may hold half of the memory.
    ``session_executors``: the executors the Vivace session keeps warm from its start
    (``vivace.session.executors.min``, at most what fits: engines/session.py)."""

    nodemanagers: int = 1
    datanodes: int = 1
    nm_memory_mb: int = 3072  # each NodeManager's
    nm_vcores: int = 3  # each NodeManager's (the scheduler counts memory only)
    container_mb: int = 1024  # every container: ApplicationMaster, map and reduce
    max_am_percent: float = 0.5  # share of the cluster's memory ApplicationMasters may hold
    session_executors: int = 1  # the Vivace session's warm executors

    real = False  # Apache's mini-cluster in one JVM, not hosts of their own (RealClusterShape)
    links = ()  # no links to shape (a class attribute, not a setting)

    # spec key -> (type, smallest value)
    KEYS = {"nodemanagers": (int, 1), "datanodes": (int, 1), "nm_memory_mb": (int, 128),
            "nm_vcores": (int, 1), "container_mb": (int, 128), "max_am_percent": (float, 0.01),
            "session_executors": (int, 1)}

    def problem(self) -> str | None:
        """Why no cluster of this shape can run a job; None when it can."""
        if self.container_mb > self.nm_memory_mb:
            return (f"container_mb {self.container_mb} does not fit a NodeManager of "
                    f"nm_memory_mb {self.nm_memory_mb}")
        if self.max_am_percent > 1:
            return f"max_am_percent {self.max_am_percent} is a share of the memory: at most 1"
        return None

    def minicluster_options(self) -> tuple[str, ...]:
        """`vivace minicluster` options for this shape."""
        return ("--nodemanagers", str(self.nodemanagers), "--datanodes", str(self.datanodes),
                "--nm-memory-mb", str(self.nm_memory_mb), "--nm-vcores", str(self.nm_vcores),
                "--am-memory-mb", str(self.container_mb), "--map-memory-mb", str(self.container_mb),
                "--reduce-memory-mb", str(self.container_mb), "--max-am-percent", str(self.max_am_percent))

    def as_dict(self) -> dict[str, int | float]:
        return asdict(self)

    def name(self, machine: str, link: str | None = None) -> str:
        """The name of the hardware description runs on this cluster are stored under: the
        machine's, then the shape (another shape is another cluster, with a price of its own)."""
        am = "" if self.max_am_percent == ClusterShape.max_am_percent else f"-am{self.max_am_percent:g}"
        warm = "" if self.session_executors == ClusterShape.session_executors else f"-warm{self.session_executors}"
        return (f"{machine}-yarn-{self.nodemanagers}x{self.nm_memory_mb}m{self.nm_vcores}c-"
                f"{self.datanodes}dn-{self.container_mb}m{am}{warm}")

    def describe(self, machine_description: dict, link: str | None = None) -> dict:
        """The machine's description with this mini-cluster's shape under ``minicluster``."""
        return {**machine_description, "minicluster": self.as_dict()}

    def summary(self) -> str:
        """One line for people: '2 NodeManagers of 3072 MB / 3 vcores, 2 DataNodes, 1024 MB containers'."""
        return (f"{_count(self.nodemanagers, 'NodeManager')} of {self.nm_memory_mb} MB / "
                f"{self.nm_vcores} vcores, {_count(self.datanodes, 'DataNode')}, "
                f"{self.container_mb} MB containers, AMs up to {self.max_am_percent:g} of the memory"
                + ("" if self.session_executors == ClusterShape.session_executors
                   else f", the Vivace session's {self.session_executors} executors kept warm"))


CLUSTER_KEYS = tuple(f.name for f in fields(ClusterShape))


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")
