"""The workload catalogue: the driver's (`vivace driver --list-workloads`) is the lab's and bench/run's."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

from vivace_lab import paths
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
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


@pytest.fixture
def bench(monkeypatch):
    """bench/vivace_bench.py as a module (its dataclasses need it in sys.modules)."""
    path = paths.vivace_home() / "bench" / "vivace_bench.py"
    spec = importlib.util.spec_from_file_location("vivace_bench", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_bench_runs_workloads_of_the_drivers_catalogue(bench):
    catalogue = bench.driver_catalogue()
    assert [name for name in catalogue] == list(WORKLOADS)
    assert bench.check_workloads(bench.DEFAULT_WORKLOADS.split(","), catalogue) is None
    assert set(bench.CATALOGUE_RUNS) <= set(catalogue), "bench/run runs only the driver's workloads"
    assert "does not run" in bench.check_workloads(["dfsio-write"], catalogue)
    assert "did you mean terasort?" in bench.check_workloads(["terasrot"], catalogue)
    without_sort = {name: w for name, w in catalogue.items() if name != "sort"}
    assert "runs sort, which the driver's catalogue does not list" in bench.check_workloads(["sleep"], without_sort)


def test_bench_lists_the_catalogues_descriptions():
    listed = subprocess.run([sys.executable, str(paths.vivace_home() / "bench" / "vivace_bench.py"), "--list"],
                            capture_output=True, text=True, check=True).stdout
    for name, workload in WORKLOADS.items():
        assert f"{name} " in listed and workload.description in listed
    bad = subprocess.run([sys.executable, str(paths.vivace_home() / "bench" / "vivace_bench.py"),
                          "--workloads", "sleep,nosuch"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--workloads nosuch: unknown workload" in bad.stderr
