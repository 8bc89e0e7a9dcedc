"""Apache Hadoop on a real YARN ResourceManager/NodeManager with HDFS: the mini-cluster, started once
per study and shared by its runs; data on hdfs://, copied there from the lab's file:// data root
(prepared there first when missing) so that it reads the very bytes the other engines read."""

from __future__ import annotations

from pathlib import Path

from vivace_lab.engines.base import EngineUnavailable, RunSettings
from vivace_lab.engines.driver import DriverEngine, driver_command, driver_env, read_record, run_sampled
from vivace_lab.engines.minicluster import MiniCluster
from vivace_lab.plan.planned import PlannedRun

# Workloads whose output checksum is compared across engines: their input is seeded from file://.
SEEDED_WORKLOADS = ("terasort", "wordcount", "sort")


class HadoopYarnEngine(DriverEngine):
    name = "hadoop-yarn"

    def __init__(self, home: Path, cluster_options: tuple[str, ...] = ()) -> None:
        self.cluster = MiniCluster(home, cluster_options)
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

    def prepare_options(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> list[str]:
        """The input prepared (or found) under the file:// data root the local engines share, for the
        driver to copy to HDFS (--seed-data-root) instead of generating other random bytes."""
        if planned.workload not in SEEDED_WORKLOADS:
            return []
        local_root = super().data_root(settings)
        record = run_dir / "seed-prepare.json"
        run_sampled(driver_command([], planned, record, local_root, (run_dir / "seed").resolve().as_uri(),
                                   "--phases", "prepare"),
                    run_dir / "seed-prepare.log", run_dir, driver_env(settings), [], None)
        prepared = read_record(record) or {}
        # Without the local copy the run generates its input on HDFS, as it always could.
        return ["--seed-data-root", local_root] if prepared.get("status") == "SUCCEEDED" else []

    def work_root(self, run_dir: Path) -> str:
        return f"{self._default_fs}/vivace-lab/runs/{run_dir.name}"

    def extra_sampled_pids(self) -> list[int]:
        return [self.cluster.pid] if self.cluster.pid else []
