"""Studies on lustre://: the spec's lustre_root, a real run whose data and output live under it
(written unstriped here, where there is no lfs tool) and the note the summary prints about that."""

from __future__ import annotations

import sys
import subprocess

import pytest

from vivace_lab import paths
from vivace_lab.engines import RunSettings, create_engine
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab.record import SUCCEEDED
from vivace_lab.store import Store
from vivace_lab.study_summary import lustre_notes
from vivace_lab.workloads.catalogue import WORKLOADS

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration


def test_the_bundled_finra_lustre_study_sweeps_the_stripe_count(hadoop_keys):
    path = paths.bundled_study("finra-lustre")
    study = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert study.lustre_root == "/tmp/vivace-lustre"
    assert study.engines == ("vivace", "hadoop-local")
    assert study.grid_points == ({"fs.lustre.stripe.count": "1"}, {"fs.lustre.stripe.count": "4"})


def test_the_stripe_keys_of_the_lustre_file_system_are_accepted(hadoop_keys):
    study = parse_spec("name: x\nlustre_root: /tmp/l/../lab\nengines: [vivace]\nworkloads: [sleep]\n"
                       "grid:\n  fs.lustre.stripe.size: [1048576]\n  fs.lustre.stripe.required: [false]\n",
                       "ok.yaml", hadoop_keys)
    assert study.lustre_root == "/tmp/lab"
    assert study.grid_points == ({"fs.lustre.stripe.size": "1048576", "fs.lustre.stripe.required": "false"},)


@pytest.mark.parametrize("text, message", [
    ("name: x\nlustre_root: lustre/here\nengines: [vivace]\nworkloads: [sleep]\n",
     "lustre_root must be an absolute directory, not 'lustre/here'"),
    ("name: x\nlustre_root: /tmp/l\nengines: [vivace, hadoop-yarn]\nworkloads: [sleep]\n",
     "hadoop-yarn keep their own file systems"),
    ("name: x\nlustre_root: /tmp/l\nengines: [spark]\nworkloads: [wordcount]\n",
     "spark keep their own file systems"),
    ("name: x\nlustre_root: [/a, /b]\nengines: [vivace]\nworkloads: [sleep]\n",
     "lustre_root must be a word or number"),
])
def test_a_bad_lustre_root_is_refused_naming_the_line(hadoop_keys, text, message):
    with pytest.raises(SpecError) as error:
        parse_spec(text, "bad.yaml", hadoop_keys)
    assert str(error.value).startswith("bad.yaml:2: "), str(error.value)
    assert message in str(error.value)


def test_a_lustre_root_that_cannot_be_created_stops_the_study_before_it_runs(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    spec = tmp_path / "s.yaml"
    spec.write_text(f"name: s\nlustre_root: {blocker}/root\nengines: [vivace]\nworkloads: [sleep]\n")
    done = subprocess.run([sys.executable, "-m", "vivace_lab", "--home", str(tmp_path / "home"), "run",
                           str(spec)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"lustre_root {blocker}/root cannot be created" in done.stdout + done.stderr
    assert not (tmp_path / "home" / "runs").exists()


def test_a_run_on_lustre_keeps_its_data_and_output_under_the_root_and_says_stripes_not_applied(tmp_path):
    root = tmp_path / "lustre" / "root"  # missing: the engine creates it
    settings = RunSettings(lab_home=tmp_path / "lab", cluster="test-machine", heap="1g",
                           sample_interval_s=None, lustre_root=root)
    params = {p.name: str(p.default) for p in WORKLOADS["finra-query"].params}
    params.update(bytes="200000", maps="1")
    planned = PlannedRun(0, "finra-query", "vivace", params, {"fs.lustre.stripe.count": "4"}, 0)
    run_dir = tmp_path / "lab" / "runs" / "s" / "00000-finra-query-vivace"

    result = create_engine("vivace", settings.lab_home).run(planned, run_dir, settings)

    assert result.status == SUCCEEDED, result.failure
    assert result.validation_status == "PASSED"
    record = result.record
    assert record["data_root"].startswith("lustre:") and record["data_root"].endswith("/data")
    assert record["data"]["path"].startswith(record["data_root"])
    assert record["work_root"].startswith("lustre:") and record["work_root"].endswith("/runs/" + run_dir.name)
    generated = [f for f in (root / "data").rglob("*") if f.is_file() and f.stat().st_size > 0]
    assert sum(f.stat().st_size for f in generated) >= 200_000
    assert not (tmp_path / "lab" / "data").exists(), "nothing on the lab home's file:// data root"
    lustre = record["results"]["lustre"]
    assert lustre["root"] == str(root) and lustre["stripe_count"] == 4
    assert lustre["stripes"].startswith("not applied")

    with Store(f"sqlite:///{tmp_path / 'lab.db'}") as store:
        store.record_run(result)
        [note] = lustre_notes(store, None)
    assert note.startswith(f"1 run(s) on lustre:// under {root}: stripes not applied")
