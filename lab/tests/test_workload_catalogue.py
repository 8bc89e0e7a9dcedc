"""The workload catalogue: the driver's (`vivace driver --list-workloads`) is the lab's, and so bench/run's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from vivace_lab import paths
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab.timing import plan
from vivace_lab.timing.command import check_workloads
from vivace_lab.workloads.catalogue import WORKLOADS, load_catalogue

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration


def drivers_catalogue() -> list[dict]:
    listed = subprocess.run([str(paths.launcher()), "driver", "--list-workloads"], check=True,
                            capture_output=True, text=True)
    return json.loads(listed.stdout)["workloads"]


def test_the_labs_catalogue_is_exactly_the_drivers():
    driver = drivers_catalogue()
    assert list(WORKLOADS) == [w["name"] for w in driver]
    for listed in driver:
        workload = WORKLOADS[listed["name"]]
        assert workload.description == listed["description"]
        assert workload.roots == listed["roots"]
        lab_params = [(p.name, p.kind, p.default, p.minimum, p.unit, p.required, p.help) for p in workload.params]
        assert lab_params == [(p["name"], p["type"], p["default"], p.get("min", 0), p["unit"], p["required"],
                               p["description"]) for p in listed["params"]], listed["name"]


def test_the_driver_is_asked_once_per_build_of_its_jar(tmp_path):
    """The answer is kept until the jar changes; a fresh checkout's first call builds (the launcher)."""
    home = tmp_path / "home"
    jar = home / "driver" / "target" / "vivace-driver.jar"
    jar.parent.mkdir(parents=True)
    shutil.copyfile(paths.vivace_home() / "driver" / "target" / "vivace-driver.jar", jar)
    calls = tmp_path / "calls"
    launcher = tmp_path / "vivace"
    launcher.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec {paths.launcher()} "$@"\n')
    launcher.chmod(0o755)

    first = load_catalogue(home, launcher)
    assert calls.read_text().splitlines() == ["driver --list-workloads"]
    assert load_catalogue(home, launcher) == first
    assert len(calls.read_text().splitlines()) == 1, "read from the cache"
    os.utime(jar, ns=(jar.stat().st_atime_ns, jar.stat().st_mtime_ns + 10**9))  # a new build
    assert load_catalogue(home, launcher) == first
    assert len(calls.read_text().splitlines()) == 2
    (home / "driver" / "target" / "vivace-workloads.json").write_text("{half a file")
    assert load_catalogue(home, launcher) == first
    assert len(calls.read_text().splitlines()) == 3


def test_a_driver_that_cannot_list_says_why(tmp_path):
    from vivace_lab.workloads.catalogue import CatalogueUnavailable

    launcher = tmp_path / "vivace"
    launcher.write_text("#!/bin/sh\necho 'vivace: build failed: (cd /x && mvn ...)' >&2\nexit 1\n")
    launcher.chmod(0o755)
    with pytest.raises(CatalogueUnavailable, match="exited with 1: vivace: build failed"):
        load_catalogue(tmp_path, launcher)


@pytest.mark.parametrize("workloads,message", [
    ("[terasrot]", "s.yaml:3: unknown workload 'terasrot' (did you mean terasort?) (known: sleep, terasort,"),
    ("\n  - terasort: {rowz: 5}", "s.yaml:4: terasort has no parameter 'rowz' (did you mean rows?) "
                                 "(its parameters: rows, maps, reduces)"),
    ("\n  - terasort: {rows: 1k}", "s.yaml:4: terasort: rows must be a whole number, not '1k'"),
    ("\n  - swim: {jobs: 2}", "s.yaml:4: swim needs the parameter 'trace': the SWIM trace file"),
    ("\n  - swim: {trace: t.tsv, gap_compression: 0}", "s.yaml:4: swim: gap_compression must be a number of"
                                                       " at least 0.001, not 0"),
])
def test_a_spec_is_checked_against_the_drivers_catalogue(hadoop_keys, workloads, message):
    spec = f"name: s\nengines: [vivace]\nworkloads: {workloads}\n"
    with pytest.raises(SpecError) as error:
        parse_spec(spec, "s.yaml", hadoop_keys)
    assert str(error.value).startswith(message)


def test_bench_runs_workloads_of_the_drivers_catalogue():
    catalogue = dict(WORKLOADS)
    assert check_workloads(plan.DEFAULT_WORKLOADS.split(","), catalogue, cluster=False) is None
    assert set(plan.CATALOGUE_RUNS) <= set(catalogue), "bench runs only the driver's workloads"
    assert "does not run" in check_workloads(["dfsio-write"], catalogue, cluster=False)
    assert "did you mean terasort?" in check_workloads(["terasrot"], catalogue, cluster=False)
    without_sort = {name: w for name, w in catalogue.items() if name != "sort"}
    assert "runs sort, which the driver's catalogue does not list" in check_workloads(["sleep"], without_sort,
                                                                                      cluster=False)
    for name in plan.CATALOGUE_RUNS:
        params = plan.driver_params(name, plan.SCALES["tiny"], {})
        known = {p.name for p in catalogue[name].params}
        assert set(params) <= known, f"bench gives {name} parameters the driver does not have"


def test_bench_lists_the_catalogues_descriptions():
    bench = [str(paths.vivace_home() / "bench" / "run")]
    listed = subprocess.run([*bench, "--list"], capture_output=True, text=True, check=True).stdout
    for name, workload in WORKLOADS.items():
        assert f"{name} " in listed and workload.description in listed
    bad = subprocess.run([*bench, "--workloads", "sleep,nosuch"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--workloads nosuch: unknown workload" in bad.stderr
