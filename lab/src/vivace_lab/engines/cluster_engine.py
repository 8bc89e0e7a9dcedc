"""Engines that run their jobs on the study's shared YARN + HDFS mini-cluster, from a driver JVM of
their own: data on hdfs://, copied there from the lab's file:// data root (prepared there first
when missing) so that every engine reads the very bytes the local engines read.

A subclass says which framework its jobs run on (``framework_options``) and may start what it
keeps across runs on the cluster (``open_on_cluster``: a session, say); the cluster itself is the
runner's, started before and stopped after all of them.
"""

from __future__ import annotations

from pathlib import Path

from vivace_lab.engines.base import RunSettings
from vivace_lab.engines.driver import DriverEngine, driver_command, driver_env, read_record, run_sampled
from vivace_lab.engines.shared_cluster import SharedCluster
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import RunResult

# Workloads whose output checksum is compared across engines: their input is seeded from file://.
SEEDED_WORKLOADS = ("terasort", "wordcount", "sort")


class ClusterEngine(DriverEngine):
    def __init__(self, cluster: SharedCluster | None = None, home: Path | None = None) -> None:
        """``cluster``: the study's shared one; without it the engine starts a cluster of the
        default shape under ``home`` when it opens and stops it when it closes."""
        if cluster is None:
            if home is None:
                raise ValueError(f"{type(self).__name__} needs a cluster or a home for one of its own")
            cluster = SharedCluster(home)
            self._owns_cluster = True
        else:
            self._owns_cluster = False
        self.cluster = cluster

    def framework_options(self) -> list[str]:
        """Generic options (-D, -conf) that run this engine's jobs on the cluster."""
        raise NotImplementedError

    def open(self) -> None:
        self.cluster.ensure_started()
        self.open_on_cluster()

    def open_on_cluster(self) -> None:
        """Start what this engine keeps on the running cluster across runs (nothing by default)."""

    def close(self) -> None:
        self.close_on_cluster()
        if self._owns_cluster:
            self.cluster.stop()

    def close_on_cluster(self) -> None:
        """Stop what ``open_on_cluster`` started."""

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        """The run, its record carrying ``cluster``: the cluster's name (``settings.cluster``),
        shape and start, and what ``session_info`` adds."""
        result = super().run(planned, run_dir, settings)
        if result.record is not None:
            result.record["cluster"] = {"name": settings.cluster, **self.cluster.info(), **self.session_info()}
        return result

    def session_info(self) -> dict:
        """What this engine keeps on the cluster for its runs (a session: when it started, how long
        that took), stored with each of them; nothing by default."""
        return {}

    def driver_options(self) -> list[str]:
        return [*self.cluster.client_options(), *self.framework_options()]

    def process_env(self, settings: RunSettings) -> dict[str, str]:
        return self.cluster.client_env(super().process_env(settings))

    def sampled_hosts(self):
        return self.cluster.hosts

    @property
    def cluster_root(self) -> str:
        """The lab's folder on the cluster's file system."""
        return f"{self.cluster.default_fs}/vivace-lab"

    def data_root(self, settings: RunSettings) -> str:
        return f"{self.cluster_root}/data"

    def work_root(self, run_dir: Path) -> str:
        return f"{self.cluster_root}/runs/{run_dir.name}"

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

    def extra_sampled_pids(self) -> list[int]:
        return [self.cluster.pid] if self.cluster.pid else []
