"""`vivace lab` end to end: a study run, stored, summarised, reported; interrupted and resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from vivace_lab.store import Store

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration


def lab(home: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vivace_lab", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600, **kwargs)


def write_spec(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_a_study_runs_alternating_is_stored_summarised_and_reported(tmp_path):
    spec = write_spec(tmp_path / "small.yaml", """
        name: small
        repeats: 2
        engines: [vivace, hadoop-local]
        workloads:
          - sleep: {maps: 2, reduces: 1}
    """)
    done = lab(tmp_path / "home", "run", str(spec))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "time / vivace" in done.stdout
    report = tmp_path / "home" / "reports" / "small.html"
    assert report.is_file() and "<svg" in report.read_text()
    with Store(f"sqlite:///{tmp_path / 'home' / 'lab.db'}") as store:
        runs = store.runs()
        assert [run.engine for run in sorted(runs, key=lambda r: r.id)] == ["vivace", "hadoop-local"] * 2
        assert all(run.status == "succeeded" and run.validation_status == "PASSED" for run in runs)
        assert all(store.samples(run.id) for run in runs)
        assert store.studies()[0].pending == 0


def test_a_bad_spec_is_refused_before_anything_runs(tmp_path):
    spec = write_spec(tmp_path / "bad.yaml", """
        name: bad
        engines: [vivace]
        workloads:
          - sleep: {maps: 2}
        grid:
          mapreduce.task.io.sort.mb: [ten]
    """)
    done = lab(tmp_path / "home", "run", str(spec))
    assert done.returncode == 2
    assert f"{spec}:6:" in done.stdout and "whole number" in done.stdout
    assert not (tmp_path / "home" / "runs").exists()


@pytest.mark.slow
def test_an_interrupted_study_leaves_no_process_and_resumes_where_it_stopped(tmp_path):
    spec = write_spec(tmp_path / "slow.yaml", """
        name: slow
        repeats: 4
        engines: [vivace]
        workloads:
          - sleep: {maps: 2, map_ms: 1500}
    """)
    home = tmp_path / "home"
    database = f"sqlite:///{home / 'lab.db'}"
    cli = subprocess.Popen([sys.executable, "-m", "vivace_lab", "--home", str(home), "run", str(spec)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_runs(database, at_least=1, process=cli)
        drivers = _wait_for_drivers(str(home), cli)
        cli.send_signal(signal.SIGTERM)
        assert cli.wait(60) != 0
    finally:
        if cli.poll() is None:
            cli.kill()
    _, alive = psutil.wait_procs(drivers, timeout=30)
    assert not alive, f"left running: {[p.pid for p in alive]}"
    assert not _processes_mentioning(str(home), exclude=cli.pid)
    with Store(database) as store:
        stored = len(store.runs())
        assert 1 <= stored < 4
        assert store.studies()[0].pending == 4 - stored

    done = lab(home, "run", str(spec))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{stored} runs were already stored" in done.stdout
    with Store(database) as store:
        runs = store.runs()
        assert len(runs) == 4
        assert sorted(run.repeat for run in runs) == [0, 1, 2, 3]
        assert store.studies()[0].pending == 0


def _wait_for_runs(database: str, at_least: int, process: subprocess.Popen) -> int:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert process.poll() is None, "the study ended before it could be interrupted"
        if Path(database.removeprefix("sqlite:///")).exists():
            with Store(database) as store:
                count = len(store.runs())
            if count >= at_least:
                return count
        time.sleep(0.2)
    pytest.fail("no run was stored in time")


def _wait_for_drivers(home: str, cli: subprocess.Popen) -> list[psutil.Process]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        drivers = _processes_mentioning(home, exclude=cli.pid)
        if drivers:
            return drivers
        time.sleep(0.05)
    pytest.fail("no driver JVM of a following run started")


def _processes_mentioning(text: str, exclude: int) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if process.pid in (os.getpid(), exclude):
            continue
        try:
            if any(text in part for part in (process.info["cmdline"] or [])):
                found.append(process)
        except psutil.Error:
            pass
    return found


@pytest.mark.slow
def test_an_engine_that_cannot_start_fails_its_runs_and_the_study_goes_on(tmp_path):
    spec = write_spec(tmp_path / "two.yaml", """
        name: two
        repeats: 1
        engines: [vivace, hadoop-yarn]
        workloads:
          - sleep: {maps: 1}
          - terasort: {rows: 500}
    """)
    home = tmp_path / "home"
    home.mkdir()
    (home / "minicluster").write_text("a file where the mini-cluster's folder must go")
    done = lab(home, "run", str(spec))
    assert done.returncode == 1, done.stdout + done.stderr
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        runs = {(run.workload, run.engine): run for run in store.runs()}
    assert len(runs) == 4
    assert runs[("sleep", "vivace")].status == runs[("terasort", "vivace")].status == "succeeded"
    for workload in ("sleep", "terasort"):
        failed = runs[(workload, "hadoop-yarn")]
        assert failed.status == "failed"
        assert "engine hadoop-yarn could not start: cannot prepare its folder" in failed.failure
    assert "2 failed run(s)" in done.stdout
