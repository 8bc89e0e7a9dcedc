"""Runs a study's queue: each pending run on its engine, stored as it completes.

A run is stored in one transaction with its place in the queue marked done, so an interrupted
study resumes at the first run that was not stored, and nothing stored is run twice. An engine that
cannot start fails its runs with the reason; the study goes on with the others.

The engines that run on a YARN + HDFS cluster share one, of the spec's ``cluster`` shape (Apache's
mini-cluster, or a real cluster of hosts in network namespaces), started when the first of them
opens and stopped after the last run. Their runs are stored under a hardware description of their
own (the machine's, with the cluster's shape and, on a real cluster, the rate of its links), and
their run records carry ``cluster``: the shape, when the cluster started and how long that took (in
no run's time). On a real cluster whose spec lists several link rates, every host's link is shaped
to a run's rate before it starts (the queue takes the rates one after the other).
"""

from __future__ import annotations

import dataclasses
import shutil
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from vivace_lab.engines import CLUSTER_ENGINES, Engine, EngineUnavailable, RunSettings, create_engine
from vivace_lab.engines.shared_cluster import SharedCluster
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.queue import plan_queue
from vivace_lab.plan.spec import StudySpec
from vivace_lab.record import FAILED, RunResult


class RunProgress(Protocol):
    def starting(self, planned: PlannedRun, done: int, total: int) -> None: ...
    def status(self, message: str) -> None: ...
    def finished(self, planned: PlannedRun, result: RunResult) -> None: ...


@dataclass
class StudyOutcome:
    study_id: int
    ran: int = 0
    failed: int = 0
    already_done: int = 0
    failures: list[str] = field(default_factory=list)
    cluster: dict | None = None  # the shared cluster's shape and start, when one ran
    cluster_stop_failure: str | None = None  # why the cluster did not stop cleanly (something left)


class StudyRunner:
    def __init__(self, spec: StudySpec, store, settings: RunSettings, progress: RunProgress,
                 engine_factory: Callable[[str, Path, SharedCluster | None], Engine] = create_engine) -> None:
        self.spec = spec
        self.store = store
        self.settings = settings
        self.progress = progress
        self.engine_factory = engine_factory
        self._engines: dict[str, Engine] = {}
        self._unavailable: dict[str, str] = {}
        self._cluster: SharedCluster | None = None
        self._cluster_announced = False
        self._described: set[str] = set()

    def run(self) -> StudyOutcome:
        queue = plan_queue(self.spec)
        study = self.store.open_study(self.spec.name, self.spec.text, self.spec.seed, queue)
        planned_by_seq = {p.seq: p for p in queue}  # the store keeps no link: the plan has it
        pending = [planned_by_seq.get(p.seq, p) for p in self.store.pending_runs(study.id)]
        outcome = StudyOutcome(study.id, already_done=len(queue) - len(pending))
        try:
            for planned in pending:
                self.progress.starting(planned, outcome.already_done + outcome.ran, len(queue))
                result = self._run_one(planned, study.name)
                self.store.record_run(result, study_id=study.id, planned_seq=planned.seq)
                outcome.ran += 1
                if result.status == FAILED:
                    outcome.failed += 1
                    outcome.failures.append(f"#{planned.seq} {planned.workload} on {planned.engine}: "
                                            f"{result.failure}")
                self.progress.finished(planned, result)
        finally:
            if self._cluster is not None and self._cluster.started_ms is not None:
                outcome.cluster = {"name": self._cluster_name(self._cluster.link), **self._cluster.info()}
            outcome.cluster_stop_failure = self._close_engines()
        return outcome

    def _run_one(self, planned: PlannedRun, study_name: str) -> RunResult:
        run_dir = self.settings.lab_home / "runs" / _safe(study_name) / \
            f"{planned.seq:05d}-{planned.workload}-{planned.engine}"
        shutil.rmtree(run_dir, ignore_errors=True)  # what an interrupted attempt left
        started_ms = int(time.time() * 1000)
        settings = self._settings_for(planned.engine, planned.link)
        try:
            engine = self._engine(planned.engine)
            if planned.link is not None and self._cluster is not None and self._cluster.link != planned.link:
                self.progress.status(f"shaping every host's link to {planned.link}")
                self._cluster.set_link(planned.link)
            return engine.run(planned, run_dir, settings)
        except EngineUnavailable as e:
            return self._failed(planned, settings, started_ms, str(e))
        except Exception as e:  # a broken adapter fails the run, not the study
            run_dir.mkdir(parents=True, exist_ok=True)
            (run_dir / "lab-error.txt").write_text(traceback.format_exc())
            return self._failed(planned, settings, started_ms, f"{type(e).__name__}: {e} (see {run_dir})")

    def _settings_for(self, engine: str, link: str | None = None) -> RunSettings:
        """The study's settings; for an engine on the cluster, stored under the cluster's name (with
        the link's rate on a real cluster), described in the store the first time."""
        if engine not in CLUSTER_ENGINES:
            return self.settings
        name = self._cluster_name(link)
        if name not in self._described:
            # the hardware description its runs are stored under: the machine with the shape
            self.store.ensure_cluster(name, self.spec.cluster.describe(self.settings.machine, link))
            self._described.add(name)
        return dataclasses.replace(self.settings, cluster=name)

    def _cluster_name(self, link: str | None = None) -> str:
        return self.spec.cluster.name(self.settings.cluster, link)

    def _shared_cluster(self, engine: str) -> SharedCluster | None:
        if engine not in CLUSTER_ENGINES:
            return None
        if self._cluster is None:
            self._cluster = SharedCluster(self.settings.lab_home / "minicluster", self.spec.cluster)
        return self._cluster

    def _announce_cluster(self) -> None:
        if self._cluster_announced or self._cluster is None or not self._cluster.running:
            return
        self._cluster_announced = True
        what = "cluster" if self.spec.cluster.real else "mini-cluster"
        self.progress.status(f"{what} ({self.spec.cluster.summary()}) started in "
                             f"{self._cluster.start_s:.1f} s")

    def _engine(self, name: str) -> Engine:
        if name in self._unavailable:
            raise EngineUnavailable(self._unavailable[name])
        engine = self._engines.get(name)
        if engine is None:
            engine = self.engine_factory(name, self.settings.lab_home, self._shared_cluster(name))
            self.progress.status(f"starting engine {name}")
            try:
                engine.open()
            except EngineUnavailable as e:
                self._unavailable[name] = f"engine {name} could not start: {e}"
                engine.close()
                raise EngineUnavailable(self._unavailable[name]) from None
            self._engines[name] = engine
            self._announce_cluster()
        return engine

    def _close_engines(self) -> str | None:
        """Closes the engines and stops the cluster; why the cluster could not be stopped cleanly,
        or None."""
        try:
            for name, engine in self._engines.items():
                self.progress.status(f"stopping engine {name}")
                engine.close()
        finally:
            self._engines.clear()
            if self._cluster is not None:
                self.progress.status("stopping the cluster" if self.spec.cluster.real else "stopping the mini-cluster")
                try:
                    self._cluster.stop()
                except EngineUnavailable as e:
                    self.progress.status(f"the cluster did not stop cleanly: {e}")
                    return f"the cluster did not stop cleanly: {e}"
        return None

    def _failed(self, planned: PlannedRun, settings: RunSettings, started_ms: int, reason: str) -> RunResult:
        return RunResult(workload=planned.workload, engine=planned.engine, cluster=settings.cluster,
                         params=dict(planned.params), overrides=dict(planned.overrides), status=FAILED,
                         started_ms=started_ms, finished_ms=int(time.time() * 1000),
                         failure=reason, repeat=planned.repeat)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
