"""A study's YARN + HDFS cluster, shared by every engine that runs on it (hadoop-yarn, hadoop-tez,
vivace-yarn): started once, when the first of them opens, its start timed apart from every run, and
stopped by whoever made it (the study runner) after the last run.

Which cluster follows the spec's ``cluster`` shape: Apache's mini-cluster in one JVM
(``MiniCluster``, the default) or a real cluster of hosts in network namespaces (``RealCluster``,
``type: real``). Both give the engines the same things: a file system, the options and environment
of a client, and, for the real one, the hosts whose traffic the sampler reads and links the runner
shapes between runs.
"""

from __future__ import annotations

import time
from pathlib import Path

from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.engines.minicluster import MiniCluster
from vivace_lab.engines.real_cluster import RealCluster
from vivace_lab.engines.real_cluster_shape import RealClusterShape
from vivace_lab.metrics.hosts import HostProbe


class SharedCluster:
    def __init__(self, home: Path, shape: ClusterShape | RealClusterShape = ClusterShape()) -> None:
        """``home``: the mini-cluster's folder; a real cluster's is ``home``'s sibling ``realcluster``."""
        self.shape = shape
        if shape.real:
            self._cluster = RealCluster(home.parent / "realcluster", shape)
        else:
            self._cluster = MiniCluster(home, shape.minicluster_options())
        self._default_fs: str | None = None
        self._failure: str | None = None
        self._probe: HostProbe | None = None
        self.started_ms: int | None = None
        self.start_s: float | None = None  # seconds from launch to READY

    def ensure_started(self) -> None:
        """Starts the cluster unless it runs; EngineUnavailable (the same reason every time) when it
        cannot."""
        if self._default_fs is not None:
            return
        if self._failure is not None:
            raise EngineUnavailable(self._failure)
        started = time.monotonic()
        self.started_ms = int(time.time() * 1000)
        try:
            self._cluster.start()
            self._default_fs = self._cluster.default_fs()
            self._probe = self._cluster.probe()
        except EngineUnavailable as e:
            self._failure = str(e)
            self._stop_after_failure()
            raise
        self.start_s = time.monotonic() - started

    def _stop_after_failure(self) -> None:
        try:
            self._cluster.stop()
        except EngineUnavailable as e:
            self._failure += f"; and bringing it down failed: {e}"

    @property
    def running(self) -> bool:
        return self._default_fs is not None

    @property
    def default_fs(self) -> str:
        if self._default_fs is None:
            raise EngineUnavailable("the cluster is not running")
        return self._default_fs

    @property
    def conf_file(self) -> Path:
        """A file of the cluster's client configuration; its folder is where engines keep what they
        start on the cluster (a session's logs)."""
        return self._cluster.conf_file

    @property
    def client_home(self) -> Path:
        """A folder of the lab's beside the cluster, for what engines start on it (a session's logs)."""
        return self._cluster.home if not self.shape.real else self._cluster.home.parent / "realcluster-clients"

    @property
    def tez_conf_file(self) -> Path:
        """What a client adds to run MapReduce jobs on Tez."""
        return self._cluster.tez_conf_file

    def client_options(self) -> list[str]:
        """Generic options (-conf) of a client of the cluster."""
        return self._cluster.client_options()

    def client_env(self, env: dict[str, str]) -> dict[str, str]:
        """``env`` with what a client of the cluster needs (a real cluster's HADOOP_CONF_DIR)."""
        return self._cluster.client_env(env)

    @property
    def hosts(self) -> HostProbe | None:
        """The real cluster's hosts for the sampler; None for the mini-cluster."""
        return self._probe

    @property
    def link(self) -> str | None:
        """The rate every host's link is shaped to now (a real cluster's)."""
        return getattr(self._cluster, "link", None)

    def set_link(self, rate: str) -> None:
        self._cluster.set_link(rate)

    @property
    def pid(self) -> int | None:
        return self._cluster.pid

    def info(self) -> dict:
        """What the runs on this cluster store of it: its shape (and link) and how it started."""
        info = {"shape": self.shape.as_dict(), "started_ms": self.started_ms,
                "start_s": None if self.start_s is None else round(self.start_s, 3)}
        if self.shape.real:
            info["link"] = self.link
            info["hosts"] = self._probe.hosts if self._probe else []
        return info

    def stop(self) -> None:
        """Stops the cluster; a real cluster's `down` that leaves something behind raises
        EngineUnavailable."""
        self._default_fs = None
        self._probe = None
        self._cluster.stop()
