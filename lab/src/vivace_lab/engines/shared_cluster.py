"""A study's YARN + HDFS mini-cluster, shared by every engine that runs on it (hadoop-yarn,
hadoop-tez, vivace-yarn): started once, when the first of them opens, its start timed apart from every run,
and stopped by whoever made it (the study runner) after the last run."""

from __future__ import annotations

import time
from pathlib import Path

from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.engines.minicluster import MiniCluster


class SharedCluster:
    def __init__(self, home: Path, shape: ClusterShape = ClusterShape()) -> None:
        self.shape = shape
        self._cluster = MiniCluster(home, shape.minicluster_options())
        self._default_fs: str | None = None
        self._failure: str | None = None
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
        except EngineUnavailable as e:
            self._failure = str(e)
            self._cluster.stop()
            raise
        self.start_s = time.monotonic() - started

    @property
    def running(self) -> bool:
        return self._default_fs is not None

    @property
    def default_fs(self) -> str:
        if self._default_fs is None:
            raise EngineUnavailable("the mini-cluster is not running")
        return self._default_fs

    @property
    def conf_file(self) -> Path:
        """The client configuration of the cluster (MapReduce on YARN)."""
        return self._cluster.conf_file

    @property
    def tez_conf_file(self) -> Path:
        """What a client adds to run MapReduce jobs on Tez (`vivace minicluster` writes it)."""
        return self._cluster.conf_file.with_name(self._cluster.conf_file.stem + "-tez.xml")

    @property
    def pid(self) -> int | None:
        return self._cluster.pid

    def info(self) -> dict:
        """What the runs on this cluster store of it: its shape and how it started."""
        return {"shape": self.shape.as_dict(), "started_ms": self.started_ms,
                "start_s": None if self.start_s is None else round(self.start_s, 3)}

    def stop(self) -> None:
        self._cluster.stop()
        self._default_fs = None
