"""bench/run --baseline REF: this checkout's Vivace against another revision's, built in a git worktree."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys

import pytest

from vivace_lab import paths

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration

BENCH = paths.vivace_home() / "bench" / "vivace_bench.py"


@pytest.fixture
def bench(monkeypatch):
    """bench/vivace_bench.py as a module (its dataclasses need it in sys.modules)."""
    spec = importlib.util.spec_from_file_location("vivace_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=paths.vivace_home(), check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def in_git_checkout():
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=paths.vivace_home(), capture_output=True).returncode:
        pytest.skip(f"{paths.vivace_home()} is not a git checkout: --baseline needs one")


def test_a_baseline_that_is_no_commit_is_refused_naming_it():
    refused = subprocess.run([sys.executable, str(BENCH), "--baseline", "no-such-ref", "--scale", "tiny"],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert "--baseline no-such-ref: not a commit of the repository" in refused.stderr


def test_the_table_puts_the_baseline_beside_this_build(bench, in_git_checkout, tmp_path, capsys):
    baseline = bench.BaselineBuild("HEAD", tmp_path)
    short = git("rev-parse", "--short", "HEAD")
    system = baseline.system()
    assert system.name == f"vivace@{short}" and system.launcher == tmp_path / f"baseline-{short}" / "vivace"
    options = argparse.Namespace(work_dir=str(tmp_path), heap="1g", scale="tiny", size={}, codecs="none",
                                 workloads="sleep", repeats=2, keep=False)
    table = bench.Bench(options, system)
    latency = [bench.Metric("tasks/s (-mt 0)", ("tasks_per_s",), "tasks/s", True, "maps")]
    table.metrics = {"sleep": [], "latency": latency}
    for repeat, (current, other) in enumerate([(4.0, 5.0), (6.0, 7.0)]):
        table.runs.append(bench.Run("sleep", "200 maps", "vivace", repeat, current, 100, True))
        table.runs.append(bench.Run("sleep", "200 maps", system.name, repeat, other, 120, True))
    for rate, name in [(3000, "vivace"), (2000, system.name)]:
        table.runs.append(bench.Run("latency", "maps", name, 0, 9.0, 200, True, metrics={"tasks_per_s": rate}))

    sleep, tasks = table.table()
    assert sleep["vivace"]["median_s"] == 5.0 and sleep[system.name]["median_s"] == 6.0
    assert sleep["speedup"] == pytest.approx(6.0 / 5.0), "times: baseline over current"
    assert tasks["speedup"] == pytest.approx(3000 / 2000), "rates: current over baseline"
    assert tasks["ratio"] == f"vivace/vivace@{short}"
    table.print_table([sleep, tasks])
    printed = capsys.readouterr().out
    assert f"vivace@{short} (min..max)" in printed
    assert f"speedup: vivace@{short}/vivace for times, vivace/vivace@{short} for rates" in printed


@pytest.mark.slow
def test_bench_builds_the_baseline_in_a_worktree_runs_it_and_removes_it(in_git_checkout, tmp_path):
    short = git("rev-parse", "--short", "HEAD")
    checkout = tmp_path / f"baseline-{short}"
    ran = subprocess.run([sys.executable, str(BENCH), "--baseline", "HEAD", "--scale", "tiny", "--repeats", "1",
                          "--workloads", "cold-start", "--work-dir", str(tmp_path)],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert f"checked out {git('rev-parse', 'HEAD')} in {checkout}" in ran.stderr
    assert f"vivace@{short} (min..max)" in ran.stdout
    assert f"removed {checkout}" in ran.stderr and not checkout.exists()
    assert str(checkout) not in git("worktree", "list")
    results = json.loads(next((tmp_path / "results").glob("bench-*.json")).read_text())
    assert [s["name"] for s in results["systems"]] == ["vivace", f"vivace@{short}"]
    assert results["systems"][1]["commit"].startswith(short)
    assert results["systems"][1]["launcher"] == str(checkout / "vivace")
    runs = {r["system"]: r for r in results["runs"]}
    assert runs["vivace"]["ok"] and runs[f"vivace@{short}"]["ok"]
