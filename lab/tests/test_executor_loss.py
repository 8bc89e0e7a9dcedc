"""The timing mode's executor-loss (bench/run --cluster N): which process it kills and when, on real
processes shaped like a session's executors, and the summary against the undisturbed terasort. The
whole of it on a mini-cluster is `bench/run --cluster` itself (docs/bench.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from vivace_lab.engines import RunSettings
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.timing.executor_loss import (
    describe_loss, executor_pids, kill_executor, kill_mid_job, loss_summary, run_with_executor_loss)


def fake_executor(tmp_path: Path, application: str) -> subprocess.Popen:
    """A real process shaped like an executor JVM: argv[0] a `java`, the main class, a container log
    folder of the application (a shell's own wait, no child, its arguments left as given)."""
    java = tmp_path / "bin" / "java"
    if not java.exists():
        java.parent.mkdir(exist_ok=True)
        java.symlink_to("/bin/bash")
    return subprocess.Popen([str(java), "-c", "read -t 120 line; :", "-Xmx819m",
                             f"-Dyarn.app.container.log.dir=/logs/{application}/container_1_0001_01_000002",
                             "io.vivace.cluster.executor.ExecutorMain"], stdin=subprocess.PIPE)


@pytest.fixture
def executors(tmp_path):
    started = []
    yield lambda application: started.append(fake_executor(tmp_path, application)) or started[-1]
    for process in started:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()


def test_only_the_sessions_executor_jvms_are_killed(executors):
    application = "application_1700000000000_0007"
    ours, other = executors(application), executors("application_1700000000000_0008")
    assert executor_pids(application) == [ours.pid]
    loss = {}
    kill_executor(application, loss)
    assert loss["killed_pid"] == ours.pid and loss["executors"] == 1
    assert ours.wait(timeout=10) == -signal.SIGKILL
    assert other.poll() is None


def test_the_executor_dies_once_half_the_maps_are_done(tmp_path, executors):
    application = "application_1700000000000_0009"
    ours = executors(application)
    log_file = tmp_path / "driver.log"
    loss, ended = {}, threading.Event()
    watcher = threading.Thread(target=kill_mid_job, args=(log_file, application, loss, ended))
    watcher.start()
    try:
        log_file.write_text("INFO mapreduce.Job:  map 0% reduce 0%\nINFO mapreduce.Job:  map 25% reduce 0%\n")
        time.sleep(0.5)
        assert ours.poll() is None and "killed_pid" not in loss, "not before half the maps"
        with open(log_file, "a") as f:
            f.write("INFO mapreduce.Job:  map 50% reduce 0%\n")
        assert ours.wait(timeout=10) == -signal.SIGKILL
        watcher.join(timeout=10)
        assert loss["killed_pid"] == ours.pid and loss["progress"] == "map 50% reduce 0%"
    finally:
        ended.set()
        watcher.join(timeout=10)


class Session:
    application_id = "application_1700000000000_0010"


class Terasort:
    """Stands for vivace-yarn: a terasort that succeeds at once (no progress line: nothing to kill)."""

    session = Session()

    def __init__(self) -> None:
        self.ran: list[str] = []

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        self.ran.append(planned.workload)
        return RunResult(planned.workload, "vivace-yarn", "c", dict(planned.params), {}, SUCCEEDED, 0, 1000,
                         duration_s=1.0, record={"jobs": []})


def test_a_loss_run_in_which_no_executor_died_fails(tmp_path):
    engine = Terasort()
    result = run_with_executor_loss(engine, PlannedRun(0, "executor-loss", "vivace-yarn", {"rows": "100"}),
                                    tmp_path, RunSettings(lab_home=tmp_path, cluster="c"))
    assert engine.ran == ["terasort"], "the run is the driver's terasort"
    assert result.workload == "executor-loss" and result.status == FAILED
    assert result.failure == "run: no executor was killed: the job ended first"


def counters(launched_maps: int, map_ms: int) -> dict:
    return {"jobs": [{"phase": "run", "counters": {"org.apache.hadoop.mapreduce.JobCounter": {
        "TOTAL_LAUNCHED_MAPS": launched_maps, "TOTAL_LAUNCHED_REDUCES": 1, "MILLIS_MAPS": map_ms,
        "MILLIS_REDUCES": 2000}}}]}


def test_the_executor_loss_is_reported_against_the_undisturbed_terasort():
    undisturbed = [{"ok": True, "duration_s": s, "record": counters(4, 8000)} for s in (4.0, 6.0)]
    lost = [{"ok": True, "duration_s": 8.0,
             "record": {**counters(6, 11000), "executor_loss": {"kill_after_s": 2.5, "killed_pid": 1}}}]
    loss = loss_summary(undisturbed, lost)
    assert loss["undisturbed_median_s"] == 5.0 and loss["with_loss_median_s"] == 8.0
    assert loss["extra_s"] == pytest.approx(3.0) and loss["extra_attempts"] == 2
    assert loss["redone_task_s"] == pytest.approx(3.0)
    text = describe_loss(loss, "0.01 GB")
    assert "killed (SIGKILL) at 50% of the maps, after 2.5 s" in text and "+3.00 s; 2 attempts more" in text
    assert loss_summary(undisturbed, [{"ok": False, "duration_s": 4.0, "record": None}]) == {"failed": True}
    assert loss_summary(undisturbed, []) is None
