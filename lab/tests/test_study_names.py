"""A study's name is a file name in the lab home (its report): one that would lead out is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab.store import Store


def lab(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vivace_lab", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("name,message", [
    ("../../../../tmp/x", "a study name is a file name, not a path: '../../../../tmp/x'"),
    ("/tmp/x", "a study name is a file name, not a path: '/tmp/x'"),
    ("studies/x", "not a path"),
    ("'..'", "not a path: '..'"),
    ("'a\\b'", "not a path: 'a\\b'"),
    ('"a\\nb"', "a study name cannot hold control characters: 'a\\nb'"),
    ("x" * 201, "a study name is at most 200 bytes (UTF-8), not 201"),
    ("é" * 101, "at most 200 bytes (UTF-8), not 202"),
])
def test_a_name_that_is_not_a_file_name_is_refused_with_its_line(hadoop_keys, name, message):
    spec = f"# a study\nname: {name}\nengines: [vivace]\nworkloads: [sleep]\n"
    with pytest.raises(SpecError) as error:
        parse_spec(spec, "s.yaml", hadoop_keys)
    assert str(error.value).startswith("s.yaml:2: ") and message in str(error.value)


def test_names_that_stay_in_the_lab_home_are_kept(hadoop_keys):
    for name in ("headline", "sort grid 2025-11", "x.y_z", ".hidden", "é" * 100):
        spec = f"name: '{name}'\nengines: [vivace]\nworkloads: [sleep]\n"
        assert parse_spec(spec, "s.yaml", hadoop_keys).name == name


@pytest.mark.integration
@pytest.mark.parametrize("command", ["check", "run"])
def test_check_and_run_refuse_it_and_write_nothing(tmp_path, command):
    home = tmp_path / "a" / "b" / "home"
    spec = tmp_path / "escape.yaml"
    spec.write_text("name: ../../../escaped\nengines: [vivace]\nworkloads: [sleep]\n")
    done = lab(home, command, str(spec))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{spec}:1: a study name is a file name, not a path" in done.stdout
    assert not list(tmp_path.rglob("escaped*"))
    assert not (home / "lab.db").exists()


def test_report_of_a_stored_study_with_such_a_name_needs_out(tmp_path):
    """A database from before names were checked may hold one."""
    home = tmp_path / "a" / "home"
    home.mkdir(parents=True)
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        store.open_study("../escaped", "name: ../escaped\n", 0, [])
    done = lab(home, "report", "../escaped")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "give the report's path with --out" in done.stdout
    assert not list(tmp_path.rglob("escaped*"))
    out = tmp_path / "report.html"
    assert lab(home, "report", "../escaped", "--out", str(out)).returncode == 0
    assert out.is_file()
