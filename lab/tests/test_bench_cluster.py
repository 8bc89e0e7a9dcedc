"""bench/run --cluster N: a Vivace session on YARN against MapReduce on YARN (no cluster started here:
the command line, the report and the executor kill, on real processes)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from vivace_lab import paths

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration

BENCH_DIR = paths.vivace_home() / "bench"
BENCH = BENCH_DIR / "vivace_bench.py"


@pytest.fixture
def modules(monkeypatch):
    """bench/vivace_bench.py and bench/vivace_cluster.py as the modules bench/run loads."""
    monkeypatch.syspath_prepend(str(BENCH_DIR))
    loaded = []
    for name in ("vivace_bench", "vivace_cluster"):
        spec = importlib.util.spec_from_file_location(name, BENCH_DIR / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
        loaded.append(module)
    return loaded


@pytest.mark.parametrize("args, message", [
    (["--cluster", "0"], "--cluster 0: at least one NodeManager"),
    (["--cluster", "3", "--workloads", "sort"], "--cluster runs latency,sleep,terasort,wordcount,executor-loss; not sort"),
    (["--cluster", "3", "--workloads", "executor-loss"], "executor-loss needs terasort too"),
    (["--cluster", "3", "--codecs", "lz4"], "--cluster runs without --baseline and --codecs"),
])
def test_what_the_cluster_mode_cannot_run_is_refused(args, message):
    refused = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True)
    assert refused.returncode == 2
    assert message in refused.stderr


def cluster_bench(modules, tmp_path):
    bench, cluster = modules
    options = argparse.Namespace(work_dir=str(tmp_path), heap="1g", scale="tiny", size={}, codecs="none",
                                 workloads="terasort,executor-loss", repeats=2, keep=False, cluster=3)
    return cluster.ClusterBench(options, cluster.MiniCluster(tmp_path, 3))


def counters(launched_maps: int, map_ms: int) -> dict:
    return {"Launched map tasks": launched_maps, "Launched reduce tasks": 1,
            "Total time spent by all map tasks (ms)": map_ms, "Total time spent by all reduce tasks (ms)": 2000}


def test_the_executor_loss_is_reported_against_the_undisturbed_terasort(modules, tmp_path, capsys):
    bench_module, _ = modules
    bench = cluster_bench(modules, tmp_path)
    assert [s.name for s in bench.systems] == ["vivace-yarn", "mapreduce-yarn"]
    for repeat, (session, mapreduce) in enumerate([(4.0, 40.0), (6.0, 50.0)]):
        bench.runs.append(bench_module.Run("terasort", "0.01 GB", "vivace-yarn", repeat, session, 100, True,
                                           counters=counters(4, 8000)))
        bench.runs.append(bench_module.Run("terasort", "0.01 GB", "mapreduce-yarn", repeat, mapreduce, 100, True))
    bench.runs.append(bench_module.Run("executor-loss", "0.01 GB", "vivace-yarn", 0, 8.0, 100, True))
    bench.losses = [{"repeat": 0, "kill_after_s": 2.5, "killed_pid": 1, "seconds": 8.0, "ok": True,
                     "counters": counters(6, 11000)}]

    rows = bench.table()
    assert [r["workload"] for r in rows] == ["terasort"], "the loss is no column of the table"
    assert rows[0]["speedup"] == pytest.approx(45.0 / 5.0)
    loss = bench.loss_summary()
    assert loss["undisturbed_median_s"] == 5.0 and loss["with_loss_median_s"] == 8.0
    assert loss["extra_s"] == pytest.approx(3.0)
    assert loss["extra_attempts"] == 2
    assert loss["redone_task_s"] == pytest.approx(3.0)
    bench.print_loss(loss)
    printed = capsys.readouterr().out
    assert "killed (SIGKILL) at 50% of the maps, after 2.5 s" in printed and "+3.00 s; 2 attempts more" in printed


def test_a_loss_run_in_which_no_executor_died_counts_as_failed(modules, tmp_path):
    bench_module, _ = modules
    bench = cluster_bench(modules, tmp_path)
    bench.runs.append(bench_module.Run("terasort", "0.01 GB", "vivace-yarn", 0, 4.0, 100, True))
    bench.losses = [{"repeat": 0, "kill_after_s": 2.0, "error": "no executor", "seconds": 4.0, "ok": False,
                     "counters": {}}]
    assert bench.loss_summary()["failed"]


def fake_executor(tmp_path, application: str) -> subprocess.Popen:
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


def test_only_the_sessions_executor_jvms_are_killed(modules, tmp_path, executors):
    bench = cluster_bench(modules, tmp_path)
    bench.application = "application_1700000000000_0007"
    ours, other = executors(bench.application), executors("application_1700000000000_0008")
    assert bench.executor_pids() == [ours.pid]
    loss = {"kill_after_s": 1.0}
    bench.kill_executor(loss)
    assert loss["killed_pid"] == ours.pid and loss["executors"] == 1
    assert ours.wait(timeout=10) == -signal.SIGKILL
    assert other.poll() is None


def test_the_executor_dies_once_half_the_maps_are_done(modules, tmp_path, executors):
    bench = cluster_bench(modules, tmp_path)
    bench.application = "application_1700000000000_0009"
    ours = executors(bench.application)
    log_file = tmp_path / "job.log"
    loss, ended = {}, threading.Event()
    watcher = threading.Thread(target=bench.kill_mid_job, args=(log_file, loss, ended))
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
