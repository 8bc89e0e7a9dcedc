"""Apache Hadoop on a real YARN ResourceManager/NodeManager with HDFS: the mini-cluster, started once
per study and shared by its runs; data on hdfs://."""

from __future__ import annotations

from pathlib import Path

from vivace_lab.engines.base import EngineUnavailable, RunSettings
from vivace_lab.engines.driver import DriverEngine
from vivace_lab.engines.minicluster import MiniCluster


class HadoopYarnEngine(DriverEngine):
    name = "hadoop-yarn"

    def __init__(self, home: Path) -> None:
        self.cluster = MiniCluster(home)
        self._default_fs: str | None = None

    def open(self) -> None:
        if self._default_fs is None:
            self.cluster.start()
            self._default_fs = self.cluster.default_fs()

    def close(self) -> None:
        self.cluster.stop()
        self._default_fs = None

    def driver_options(self) -> list[str]:
        if self._default_fs is None:
            raise EngineUnavailable("the mini-cluster is not running")
        return ["-conf", str(self.cluster.conf_file), "-D", "mapreduce.framework.name=yarn"]

    def data_root(self, settings: RunSettings) -> str:
        return f"{self._default_fs}/vivace-lab/data"

    def work_root(self, run_dir: Path) -> str:
        return f"{self._default_fs}/vivace-lab/runs/{run_dir.name}"

    def extra_sampled_pids(self) -> list[int]:
        return [self.cluster.pid] if self.cluster.pid else []
