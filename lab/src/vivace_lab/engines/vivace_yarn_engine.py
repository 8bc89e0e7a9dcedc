"""Vivace on YARN: the same unmodified MapReduce jobs (``mapreduce.framework.name=vivace``) sent
with ``vivace.master=yarn`` to a Vivace session on the study's shared mini-cluster, whose warm
executors run them (docs/cluster.md). The session starts when the engine opens, timed apart from
every run, and stops when it closes; each run stores the session's application id and size."""

from __future__ import annotations

import os
from pathlib import Path

from vivace_lab.engines.base import EngineUnavailable, RunSettings
from vivace_lab.engines.cluster_engine import ClusterEngine
from vivace_lab.engines.driver import driver_command, read_record, run_sampled
from vivace_lab.engines.logs import log_tail
from vivace_lab.engines.session import SessionSize, YarnSession
from vivace_lab.engines.shared_cluster import SharedCluster
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, RunResult

# One map and one reduce: the session's first executor joins and runs a task before any timed run.
WARM_UP = PlannedRun(0, "sleep", "vivace-yarn", {"maps": "1", "reduces": "1"}, {}, 0)


class VivaceYarnEngine(ClusterEngine):
    name = "vivace-yarn"

    def __init__(self, cluster: SharedCluster | None = None, home: Path | None = None,
                 session_size: SessionSize | None = None) -> None:
        """``session_size``: what the session holds; by default what the cluster's shape gives it
        (``SessionSize.for_shape``)."""
        super().__init__(cluster, home)
        self.session: YarnSession | None = None
        self.session_size = session_size

    def framework_options(self) -> list[str]:
        if self.session is None:
            raise EngineUnavailable("the Vivace session is not running")
        return ["-D", "mapreduce.framework.name=vivace", *self.session.options()]

    def open_on_cluster(self) -> None:
        home = self.cluster.client_home / "vivace-session"
        size = self.session_size or SessionSize.for_shape(self.cluster.shape)
        # a real cluster's containers see no client's class path: the jobs carry their classes
        self.session = YarnSession(self.cluster.conf_file, size, home, self.cluster.client_options(),
                                   self.cluster.client_env, with_driver_classpath=not self.cluster.shape.real)
        self.session.start(lambda: self._warm_up(home / "warm-up"))

    def close_on_cluster(self) -> None:
        if self.session is not None:
            self.session.stop()

    def session_info(self) -> dict:
        return self.session.info() if self.session is not None else {}

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        """The run, failed if any of its jobs ran elsewhere than on the session the engine started
        (a job finding no session starts one of its own, whose start would be in the run's time)."""
        result = super().run(planned, run_dir, settings)
        prefix = self.session.job_id_prefix() if self.session else None
        strays = [job.get("job_id") for job in (result.record or {}).get("jobs") or []
                  if job.get("phase") == "run" and not str(job.get("job_id")).startswith(str(prefix))]
        if strays and result.status != FAILED:
            result.status = FAILED
            result.failure = (f"run: job(s) {', '.join(map(str, strays))} did not run on Vivace session "
                              f"{self.session.application_id if self.session else None}: did it end?")
        return result

    def _warm_up(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        record = folder / "record.json"
        command = driver_command(self.driver_options(), WARM_UP, record, f"{self.cluster_root}/data",
                                 f"{self.cluster_root}/warm-up", "--phases", "run")
        run_sampled(command, folder / "driver.log", folder, self.cluster.client_env(dict(os.environ)), [], None)
        status = (read_record(record) or {}).get("status")
        if status != "SUCCEEDED":
            raise EngineUnavailable(f"a 1-map sleep job on the new Vivace session {self.session.application_id} "
                                    f"did not succeed ({status}): {log_tail(folder / 'driver.log')}")
