"""The study runner's own logic, driven through its engine factory with fake engines (the seam
`StudyRunner(engine_factory=...)`), in milliseconds: an engine that cannot start, runs stored with
their place in the queue, a study resumed, engines opened once and closed. The same behaviours on
real engines, through the CLI, are in test_study_cli.py (slow)."""

from __future__ import annotations

import time
from pathlib import Path

from vivace_lab.engines import Engine, EngineUnavailable, RunSettings
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.spec import StudySpec, WorkloadPoint
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.runner import StudyRunner
from vivace_lab.store import Store


class FakeEngine(Engine):
    """Succeeds every run at once; or, given ``cannot_start``, fails to open with that reason."""

    def __init__(self, name: str, log: list[str], cannot_start: str | None = None,
                 fail_after_runs: int | None = None) -> None:
        self.name = name
        self.log = log
        self.cannot_start = cannot_start
        self.fail_after_runs = fail_after_runs

    def open(self) -> None:
        self.log.append(f"open {self.name}")
        if self.cannot_start:
            raise EngineUnavailable(self.cannot_start)

    def close(self) -> None:
        self.log.append(f"close {self.name}")

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        self.log.append(f"run {planned.seq} {planned.workload} {self.name}")
        if self.fail_after_runs is not None and sum(e.startswith("run ") for e in self.log) > self.fail_after_runs:
            raise KeyboardInterrupt  # the study is interrupted in the middle of this run
        now = int(time.time() * 1000)
        return RunResult(workload=planned.workload, engine=self.name, cluster=settings.cluster,
                         params=dict(planned.params), overrides=dict(planned.overrides), status=SUCCEEDED,
                         started_ms=now, finished_ms=now, duration_s=0.01, repeat=planned.repeat,
                         validation_status="PASSED")


class Progress:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def starting(self, planned, done, total) -> None:
        self.messages.append(f"starting {planned.seq} ({done}/{total})")

    def status(self, message: str) -> None:
        self.messages.append(message)

    def finished(self, planned, result) -> None:
        self.messages.append(f"finished {planned.seq} {result.status}")


def spec(engines: tuple[str, ...], repeats: int = 1) -> StudySpec:
    points = (WorkloadPoint("sleep", {"maps": "1"}, engines), WorkloadPoint("terasort", {"rows": "500"}, engines))
    return StudySpec(name="two", description="", seed=0, repeats=repeats, engines=engines,
                     workload_points=points, grid_points=({},), text="name: two\n")


def runner(tmp_path: Path, store: Store, study: StudySpec, factory) -> StudyRunner:
    store.ensure_cluster("test-machine", {"cores": 2})
    settings = RunSettings(lab_home=tmp_path / "home", cluster="test-machine")
    return StudyRunner(study, store, settings, Progress(), engine_factory=factory)


def test_an_engine_that_cannot_start_fails_its_runs_and_the_study_goes_on(tmp_path):
    log: list[str] = []

    def factory(name, lab_home, cluster):
        return FakeEngine(name, log, cannot_start="cannot prepare its folder" if name == "hadoop-yarn" else None)

    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        outcome = runner(tmp_path, store, spec(("vivace", "hadoop-yarn")), factory).run()
        runs = {(run.workload, run.engine): run for run in store.runs()}
    assert (outcome.ran, outcome.failed) == (4, 2)
    assert runs[("sleep", "vivace")].status == runs[("terasort", "vivace")].status == SUCCEEDED
    for workload in ("sleep", "terasort"):
        failed = runs[(workload, "hadoop-yarn")]
        assert failed.status == FAILED
        assert failed.failure == "engine hadoop-yarn could not start: cannot prepare its folder"
    assert log.count("open hadoop-yarn") == 1, "an engine that could not start is not tried again: " + repr(log)
    assert log.count("open vivace") == 1 and log[-1] == "close vivace", log
    assert len(outcome.failures) == 2 and all("could not start" in f for f in outcome.failures)


def test_runs_are_stored_in_queue_order_and_an_interrupted_study_resumes_where_it_stopped(tmp_path):
    log: list[str] = []
    study = spec(("vivace", "hadoop-local"), repeats=2)
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        interrupted = runner(tmp_path, store, study, lambda name, home, cluster: FakeEngine(name, log, fail_after_runs=3))
        try:
            interrupted.run()
            raise AssertionError("the fake engine interrupts the fourth run")
        except KeyboardInterrupt:
            pass
        assert {"close vivace", "close hadoop-local"} <= set(log), "an interrupted study closes its engines: " + repr(log)
        assert len(store.runs()) == 3, "the three runs that ended are stored, the interrupted one is not"
        log.clear()
        outcome = runner(tmp_path, store, study, lambda name, home, cluster: FakeEngine(name, log)).run()
        runs = sorted(store.runs(), key=lambda r: r.id)
    assert outcome.already_done == 3 and outcome.ran == 5
    assert [e for e in log if e.startswith("run ")][0] == "run 3 terasort hadoop-local", \
        "the study resumes at the first run that was not stored: " + repr(log)
    assert [(r.workload, r.engine) for r in runs] == [("sleep", "vivace"), ("sleep", "hadoop-local"),
                                                      ("terasort", "vivace"), ("terasort", "hadoop-local")] * 2
    assert all(r.status == SUCCEEDED for r in runs)
