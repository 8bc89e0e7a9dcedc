"""bench/run, the front of the lab's timing mode, on the real engines: the command users and the docs
rely on, end to end at a tiny size, and its --baseline built in a git worktree."""

from __future__ import annotations

import subprocess

import pytest

from vivace_lab import paths
from vivace_lab.store import Store

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration

BENCH = str(paths.vivace_home() / "bench" / "run")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=paths.vivace_home(), check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def in_git_checkout():
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=paths.vivace_home(), capture_output=True).returncode:
        pytest.skip(f"{paths.vivace_home()} is not a git checkout: --baseline needs one")


def test_a_baseline_that_is_no_commit_is_refused_naming_it(tmp_path):
    refused = subprocess.run([BENCH, "--baseline", "no-such-ref", "--scale", "tiny", "--work-dir", str(tmp_path)],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert "--baseline no-such-ref: not a commit of the repository" in refused.stderr


def rows(table: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in table.splitlines() if line and not line.startswith("-")}


@pytest.mark.slow
def test_bench_times_vivace_against_the_local_runner_into_the_labs_store(tmp_path):
    ran = subprocess.run([BENCH, "--scale", "tiny", "--repeats", "1", "--workloads", "sleep,terasort,cold-start",
                          "--size", "sleep=4", "--size", "terasort=200k", "--heap", "1g", "--work-dir", str(tmp_path)],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-3000:]
    table = rows(ran.stdout)
    assert list(table)[:4] == ["workload", "sleep", "terasort", "cold-start"]
    for name in ("sleep", "terasort", "cold-start"):
        assert table[name][-1].endswith("x"), f"{name} has a ratio: {table[name]}"
    assert "4 maps x 1 ms" in ran.stdout
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        [study] = store.studies()
        runs = store.runs(study_id=study.id)
        terasort = [store.run(r.id) for r in runs if r.workload == "terasort"]
    assert sorted((r.workload, r.engine) for r in runs) == sorted(
        (w, e) for w in ("sleep", "terasort", "cold-start") for e in ("vivace", "hadoop-local"))
    assert all(r.status == "succeeded" for r in runs)
    assert [r.validation_status for r in terasort] == ["PASSED", "PASSED"], "the driver validated both outputs"
    assert terasort[0].output_checksum == terasort[1].output_checksum, "the same input, the same output"
    assert all(r.record["process"]["peak_rss_mb"] > 0 for r in terasort)
    assert (tmp_path / "reports" / f"{study.name}.html").is_file()
    assert not any((tmp_path / "runs").rglob("driver.log")), "run folders go unless --keep"


@pytest.mark.slow
def test_bench_builds_the_baseline_in_a_worktree_runs_it_and_removes_it(in_git_checkout, tmp_path):
    short = git("rev-parse", "--short", "HEAD")
    checkout = tmp_path / f"baseline-{short}"
    ran = subprocess.run([BENCH, "--baseline", "HEAD", "--scale", "tiny", "--repeats", "1",
                          "--workloads", "cold-start", "--work-dir", str(tmp_path)],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert f"checked out {git('rev-parse', 'HEAD')} in {checkout}" in ran.stderr
    assert f"vivace@{short} (min..max)" in ran.stdout
    assert f"speedup: vivace@{short}/vivace for times" in ran.stdout
    assert f"removed {checkout}" in ran.stderr and not checkout.exists()
    assert str(checkout) not in git("worktree", "list")
    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        runs = {r.engine: store.run(r.id) for r in store.runs()}
    assert set(runs) == {"vivace", f"vivace@{short}"} and all(r.status == "succeeded" for r in runs.values())
    assert runs[f"vivace@{short}"].record["program"]["command"][0] == str(checkout / "vivace"), \
        "the baseline's jobs ran through its own launcher"
