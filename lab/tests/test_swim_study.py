"""`vivace lab swim`: the generated study spec, the trace it finds or refuses, the synthetic
trace generator, and a tiny replay end to end through the CLI."""

from __future__ import annotations

import argparse

import pytest

from vivace_lab import swim_study
from vivace_lab.plan.spec import parse_spec
from vivace_lab.store import Store
from test_study_cli import lab


def options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    swim_study.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_default_replay_is_fb2010s_first_20_jobs_on_the_three_engines(tmp_path, hadoop_keys):
    path = swim_study.write_spec(options(), tmp_path)
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert spec.engines == ("vivace", "hadoop-local", "hadoop-yarn")
    [point] = spec.workload_points
    assert point.workload == "swim"
    assert point.params["trace"].endswith("shared/data/swim/FB-2010_samples_24_times_1hr_0.tsv")
    assert (point.params["jobs"], point.params["cluster_nodes"], point.params["trace_nodes"]) == ("20", "1", "3000")
    assert (point.params["scale_factor"], point.params["gap_compression"]) == ("0.0", "1.0")
    assert point.params["block_size"] == str(4 * 2**20)
    # the same options name the same study (so it resumes); others another
    assert swim_study.write_spec(options(), tmp_path) == path
    assert swim_study.write_spec(options("--window", "1200"), tmp_path) != path


def test_a_replay_on_a_cluster_of_three_runs_the_cluster_engines_on_one_shared_cluster(tmp_path, hadoop_keys):
    default = swim_study.write_spec(options(), tmp_path)
    path = swim_study.write_spec(options("--cluster", "3"), tmp_path)
    spec = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert spec.engines == ("hadoop-yarn", "hadoop-tez", "vivace-yarn")
    shape = spec.cluster
    assert (shape.nodemanagers, shape.datanodes, shape.nm_memory_mb, shape.container_mb, shape.max_am_percent) == \
        (3, 3, 4096, 512, 0.5)
    # the replay's own containers on the one-node cluster too
    assert parse_spec(default.read_text(), str(default), hadoop_keys).cluster.container_mb == 512
    assert path != default
    with pytest.raises(swim_study.SwimOptionError, match="--engines names none of them"):
        swim_study.write_spec(options("--cluster", "3", "--engines", "vivace"), tmp_path)


def test_a_window_lifts_the_job_limit_and_a_factor_replaces_machines(tmp_path):
    params = swim_study.swim_params(options("--window", "1200", "--scale", "1e-5"), tmp_path / "t.tsv")
    assert (params["jobs"], params["window_s"], params["scale_factor"]) == (0, 1200, 1e-5)
    with pytest.raises(swim_study.SwimOptionError, match="neither N/M"):
        swim_study.swim_params(options("--scale", "tiny"), tmp_path / "t.tsv")


def test_a_missing_trace_says_where_the_public_traces_are(tmp_path):
    with pytest.raises(swim_study.SwimOptionError, match="github.com/SWIMProjectUCB/SWIM, folder workloadSuite"):
        swim_study.write_spec(options("--trace", str(tmp_path / "nope.tsv")), tmp_path)


def test_the_synthetic_trace_is_swims_format_and_reproducible(tmp_path):
    a = swim_study.write_synthetic_trace(tmp_path / "a.tsv", 50, seed=3).read_text().splitlines()
    b = swim_study.write_synthetic_trace(tmp_path / "b.tsv", 50, seed=3).read_text().splitlines()
    assert a == b and len(a) == 50
    submit = 0
    for i, line in enumerate(a):
        name, at, gap, *sizes = line.split("\t")
        submit += int(gap)
        assert name == f"synth{i}" and int(at) == submit and len(sizes) == 3
        assert all(int(size) >= 0 for size in sizes)
    assert any(line.split("\t")[4] == "0" for line in a), "some jobs without shuffle"


def test_a_missing_trace_exits_2_through_the_cli(tmp_path):
    done = lab(tmp_path / "home", "swim", "--trace", str(tmp_path / "nope.tsv"))
    assert done.returncode == 2
    assert "SWIMProjectUCB/SWIM" in done.stdout


@pytest.mark.slow
def test_a_tiny_synthetic_replay_end_to_end(tmp_path):
    done = lab(tmp_path / "home", "swim", "--synthetic", "4", "--engines", "vivace,hadoop-local",
               "--scale", "1e-7", "--block-size", "64KiB", "--pool-partitions", "8", "--gap-compression", "10")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SWIM: per-job time ratio" in done.stdout and "hadoop-local / vivace" in done.stdout
    [report] = (tmp_path / "home" / "reports").glob("swim-synthetic-*.html")
    assert 'id="swim"' in report.read_text()
    with Store(f"sqlite:///{tmp_path / 'home' / 'lab.db'}") as store:
        runs = store.runs(workload="swim")
        assert sorted(run.engine for run in runs) == ["hadoop-local", "vivace"]
        for run in runs:
            assert run.status == "succeeded", run.failure
            assert len([job for job in store.run(run.id).jobs if job.phase == "run"]) == 4
